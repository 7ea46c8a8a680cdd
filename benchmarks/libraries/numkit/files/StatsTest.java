package org.repairlab.numkit;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class StatsTest {

    private static final double EPS = 1e-9;

    @Test
    public void mean() {
        assertEquals(2.5, Stats.mean(1, 2, 3, 4), EPS);
    }

    @Test
    public void medianOfOddAndEvenCounts() {
        assertEquals(3, Stats.median(5, 1, 3), EPS);
        assertEquals(2.5, Stats.median(4, 1, 3, 2), EPS);
    }

    @Test(expected = IllegalArgumentException.class)
    public void noValues() {
        Stats.mean();
    }
}
