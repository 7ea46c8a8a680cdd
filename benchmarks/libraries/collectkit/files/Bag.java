package org.repairlab.collect;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** Counts how often each element was added. */
public final class Bag<T> {

    private final Map<T, Integer> counts = new HashMap<>();
    private int total;

    public void add(T item) {
        add(item, 1);
    }

    public void add(T item, int times) {
        if (times < 0) {
            throw new IllegalArgumentException("times must not be negative: " + times);
        }
        counts.merge(item, times, Integer::sum);
        total += times;
    }

    public int count(T item) {
        return counts.getOrDefault(item, 0);
    }

    public int total() {
        return total;
    }

    public Set<T> distinct() {
        return counts.keySet();
    }
}
