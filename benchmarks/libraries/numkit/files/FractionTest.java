package org.repairlab.numkit;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class FractionTest {

    @Test
    public void reducesToLowestTerms() {
        assertEquals("2/3", Fraction.of(4, 6).toString());
        assertEquals("-1/2", Fraction.of(3, -6).toString());
        assertEquals("5", Fraction.of(10, 2).toString());
    }

    @Test
    public void multiply() {
        assertEquals(Fraction.of(1, 4), Fraction.of(1, 2).multiply(Fraction.of(1, 2)));
        assertEquals(Fraction.of(-3, 8), Fraction.of(3, 4).multiply(Fraction.of(-1, 2)));
    }
}
