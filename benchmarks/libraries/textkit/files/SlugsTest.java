package org.repairlab.textkit;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class SlugsTest {

    @Test
    public void lowerCasesAndJoinsWords() {
        assertEquals("hello-world", Slugs.slugify("Hello, World!"));
    }

    @Test
    public void dropsAccents() {
        assertEquals("creme-brulee", Slugs.slugify("Cr\u00e8me br\u00fbl\u00e9e"));
    }

    @Test
    public void trimsSeparatorsAtTheEnds() {
        assertEquals("edge", Slugs.slugify("  --edge--  "));
    }
}
