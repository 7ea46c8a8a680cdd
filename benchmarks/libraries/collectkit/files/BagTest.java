package org.repairlab.collect;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class BagTest {

    @Test
    public void countsAdditions() {
        Bag<String> bag = new Bag<>();
        bag.add("x");
        bag.add("y", 3);
        bag.add("x");
        assertEquals(2, bag.count("x"));
        assertEquals(3, bag.count("y"));
        assertEquals(0, bag.count("z"));
        assertEquals(5, bag.total());
        assertEquals(2, bag.distinct().size());
    }
}
