package org.repairlab.textkit;

import static org.junit.Assert.assertEquals;

import java.util.Arrays;
import java.util.Collections;
import org.junit.Test;

public class WordWrapTest {

    @Test
    public void wrapsAtSpaces() {
        assertEquals(Arrays.asList("the quick", "brown fox"), WordWrap.wrap("the quick brown fox", 10));
    }

    @Test
    public void longWordGetsItsOwnLine() {
        assertEquals(Arrays.asList("a", "abcdefghijkl", "b"), WordWrap.wrap("a abcdefghijkl b", 5));
    }

    @Test
    public void emptyTextHasNoLines() {
        assertEquals(Collections.emptyList(), WordWrap.wrap("   ", 4));
    }

    @Test
    public void fillJoinsLines() {
        assertEquals("one two\nthree", WordWrap.fill("one two three", 7));
    }
}
