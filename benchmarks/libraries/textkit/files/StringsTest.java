package org.repairlab.textkit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class StringsTest {

    @Test
    public void blankStrings() {
        assertTrue(Strings.isBlank(null));
        assertTrue(Strings.isBlank(""));
        assertTrue(Strings.isBlank("  \t"));
        assertFalse(Strings.isBlank(" a "));
    }

    @Test
    public void repeatConcatenates() {
        assertEquals("ababab", Strings.repeat("ab", 3));
        assertEquals("", Strings.repeat("ab", 0));
    }

    @Test(expected = IllegalArgumentException.class)
    public void repeatRejectsNegativeCount() {
        Strings.repeat("x", -1);
    }
}
