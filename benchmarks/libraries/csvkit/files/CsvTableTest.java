package org.repairlab.csv;

import static org.junit.Assert.assertEquals;

import java.util.Arrays;
import org.junit.Test;

public class CsvTableTest {

    private static final String PEOPLE = "name,age\nAda,36\n\nLinus,28\n";

    @Test
    public void headerAndRows() {
        CsvTable table = CsvTable.parse(PEOPLE, CsvDialect.DEFAULT);
        assertEquals(Arrays.asList("name", "age"), table.header());
        assertEquals(2, table.rowCount());
        assertEquals(Arrays.asList("Linus", "28"), table.row(1));
    }
}
