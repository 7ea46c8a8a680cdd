package org.repairlab.collect;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class IntRangeTest {

    @Test
    public void halfOpen() {
        IntRange r = IntRange.of(2, 5);
        assertTrue(r.contains(2));
        assertTrue(r.contains(4));
        assertFalse(r.contains(5));
        assertEquals(3, r.size());
    }

    @Test
    public void emptyRange() {
        assertTrue(IntRange.of(3, 3).isEmpty());
        assertEquals("[3, 3)", IntRange.of(3, 3).toString());
    }

    @Test(expected = IllegalArgumentException.class)
    public void endBeforeStartIsRejected() {
        IntRange.of(5, 2);
    }
}
