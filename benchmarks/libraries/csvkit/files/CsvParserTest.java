package org.repairlab.csv;

import static org.junit.Assert.assertEquals;

import java.util.Arrays;
import org.junit.Test;

public class CsvParserTest {

    private final CsvParser parser = new CsvParser();

    @Test
    public void plainFields() {
        assertEquals(Arrays.asList("a", "b", "c"), parser.parseLine("a,b,c"));
    }

    @Test
    public void quotedFieldWithComma() {
        assertEquals(Arrays.asList("x", "1,5", "y"), parser.parseLine("x,\"1,5\",y"));
    }

    @Test
    public void emptyFields() {
        assertEquals(Arrays.asList("", "", ""), parser.parseLine(",,"));
    }
}
