package org.repairlab.csv;

import static org.junit.Assert.assertEquals;

import java.util.Arrays;
import org.junit.Test;

public class CsvWriterTest {

    private final CsvWriter writer = new CsvWriter(CsvDialect.DEFAULT);

    @Test
    public void plainFieldsStayUnquoted() {
        assertEquals("a,b,c", writer.formatRow(Arrays.asList("a", "b", "c")));
    }

    @Test
    public void fieldWithDelimiterIsQuoted() {
        assertEquals("x,\"1,5\"", writer.formatRow(Arrays.asList("x", "1,5")));
    }

    @Test
    public void semicolonDialect() {
        CsvWriter semi = new CsvWriter(CsvDialect.DEFAULT.withDelimiter(';'));
        assertEquals("a;\"b;c\"", semi.formatRow(Arrays.asList("a", "b;c")));
    }
}
