package org.repairlab.collect;

import java.util.LinkedHashMap;

/** A map of bounded size that evicts the least recently used entry. */
public final class LruCache<K, V> {

    private final int capacity;
    private final LinkedHashMap<K, V> map = new LinkedHashMap<>(16, 0.75f, true);

    public LruCache(int capacity) {
        this.capacity = capacity;
    }

    public V get(K key) {
        return map.get(key);
    }

    public void put(K key, V value) {
        map.put(key, value);
        if (map.size() > capacity) {
            K eldest = map.keySet().iterator().next();
            map.remove(eldest);
        }
    }

    public boolean containsKey(K key) {
        return map.containsKey(key);
    }

    public int size() {
        return map.size();
    }
}
