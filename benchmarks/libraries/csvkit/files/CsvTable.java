package org.repairlab.csv;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A parsed CSV document: a header line and data rows. */
public final class CsvTable {

    private final List<String> header;
    private final List<List<String>> rows;

    private CsvTable(List<String> header, List<List<String>> rows) {
        this.header = Collections.unmodifiableList(header);
        this.rows = Collections.unmodifiableList(rows);
    }

    /** Parses text whose first line is the header; blank lines are skipped. */
    public static CsvTable parse(String text, CsvDialect dialect) {
        CsvParser parser = new CsvParser(dialect);
        String[] lines = text.split("\r?\n");
        List<String> header = parser.parseLine(lines[0]);
        List<List<String>> rows = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            if (!lines[i].isEmpty()) {
                rows.add(parser.parseLine(lines[i]));
            }
        }
        return new CsvTable(header, rows);
    }

    public List<String> header() {
        return header;
    }

    public int rowCount() {
        return rows.size();
    }

    public List<String> row(int index) {
        return rows.get(index);
    }
}
