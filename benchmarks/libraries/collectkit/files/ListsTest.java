package org.repairlab.collect;

import static org.junit.Assert.assertEquals;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.Test;

public class ListsTest {

    private static final List<Integer> FIVE = Arrays.asList(1, 2, 3, 4, 5);

    @Test
    public void partitionKeepsAShorterLastPart() {
        assertEquals(Arrays.asList(Arrays.asList(1, 2), Arrays.asList(3, 4), Arrays.asList(5)), Lists.partition(FIVE, 2));
    }

    @Test
    public void partitionOfEmptyListIsEmpty() {
        assertEquals(Collections.emptyList(), Lists.partition(Collections.emptyList(), 3));
    }

    @Test(expected = IllegalArgumentException.class)
    public void partitionRejectsZeroSize() {
        Lists.partition(FIVE, 0);
    }
}
