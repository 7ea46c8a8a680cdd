package org.repairlab.collect;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class LruCacheTest {

    @Test
    public void evictsTheLeastRecentlyUsed() {
        LruCache<String, Integer> cache = new LruCache<>(2);
        cache.put("a", 1);
        cache.put("b", 2);
        cache.get("a");
        cache.put("c", 3);
        assertTrue(cache.containsKey("a"));
        assertFalse(cache.containsKey("b"));
        assertEquals(2, cache.size());
    }
}
