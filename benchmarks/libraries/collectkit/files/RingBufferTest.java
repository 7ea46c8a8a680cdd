package org.repairlab.collect;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import org.junit.Test;

public class RingBufferTest {

    @Test
    public void keepsTheMostRecentElements() {
        RingBuffer<String> buffer = new RingBuffer<>(3);
        for (String s : new String[] {"a", "b", "c", "d", "e"}) {
            buffer.add(s);
        }
        assertTrue(buffer.isFull());
        assertEquals(Arrays.asList("c", "d", "e"), buffer.toList());
        assertEquals("c", buffer.get(0));
    }

    @Test
    public void growsUntilFull() {
        RingBuffer<Integer> buffer = new RingBuffer<>(4);
        buffer.add(1);
        buffer.add(2);
        assertEquals(2, buffer.size());
        assertEquals(Arrays.asList(1, 2), buffer.toList());
    }

    @Test(expected = IndexOutOfBoundsException.class)
    public void getBeyondSizeFails() {
        RingBuffer<Integer> buffer = new RingBuffer<>(4);
        buffer.add(1);
        buffer.get(1);
    }
}
