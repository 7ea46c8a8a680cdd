package org.repairlab.numkit;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class RomanTest {

    @Test
    public void toRoman() {
        assertEquals("MCMXCIV", Roman.toRoman(1994));
        assertEquals("IV", Roman.toRoman(4));
        assertEquals("MMMCMXCIX", Roman.toRoman(3999));
    }
}
