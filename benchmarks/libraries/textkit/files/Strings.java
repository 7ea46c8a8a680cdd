package org.repairlab.textkit;

/** Small helpers for everyday string handling. */
public final class Strings {

    private Strings() {
    }

    /** True when the string is null or contains only whitespace. */
    public static boolean isBlank(String s) {
        return s == null || s.trim().isEmpty();
    }

    /** The string repeated {@code times} times. */
    public static String repeat(String s, int times) {
        if (times < 0) {
            throw new IllegalArgumentException("times must not be negative: " + times);
        }
        StringBuilder sb = new StringBuilder(s.length() * times);
        for (int i = 0; i < times; i++) {
            sb.append(s);
        }
        return sb.toString();
    }
}
