package org.repairlab.collect;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Helpers for java.util.List that return new lists and never modify their input. */
public final class Lists {

    private Lists() {
    }

    /** Consecutive sublists of {@code size} elements; the last one may be shorter. */
    public static <T> List<List<T>> partition(List<T> list, int size) {
        if (size < 1) {
            throw new IllegalArgumentException("size must be positive: " + size);
        }
        List<List<T>> parts = new ArrayList<>();
        for (int start = 0; start < list.size(); start += size) {
            int end = Math.min(start + size, list.size());
            parts.add(Collections.unmodifiableList(new ArrayList<>(list.subList(start, end))));
        }
        return parts;
    }
}
