package org.repairlab.numkit;

import java.util.Arrays;

/** Descriptive statistics over arrays of doubles. */
public final class Stats {

    private Stats() {
    }

    public static double mean(double... values) {
        requireValues(values);
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return sum / values.length;
    }

    public static double median(double... values) {
        requireValues(values);
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    private static void requireValues(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values");
        }
    }
}
