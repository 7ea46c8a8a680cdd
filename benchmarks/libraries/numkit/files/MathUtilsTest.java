package org.repairlab.numkit;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class MathUtilsTest {

    @Test
    public void gcd() {
        assertEquals(6, MathUtils.gcd(54, 24));
        assertEquals(7, MathUtils.gcd(7, 0));
        assertEquals(1, MathUtils.gcd(17, 5));
    }

    @Test
    public void lcm() {
        assertEquals(12, MathUtils.lcm(4, 6));
        assertEquals(35, MathUtils.lcm(5, 7));
    }
}
