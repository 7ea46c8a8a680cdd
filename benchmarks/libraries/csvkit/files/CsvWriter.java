package org.repairlab.csv;

import java.util.List;

/** Formats rows as CSV lines, quoting fields only when they need it. */
public final class CsvWriter {

    private final CsvDialect dialect;

    public CsvWriter(CsvDialect dialect) {
        this.dialect = dialect;
    }

    public String formatRow(List<String> fields) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                out.append(dialect.delimiter());
            }
            out.append(quoteIfNeeded(fields.get(i)));
        }
        return out.toString();
    }

    String quoteIfNeeded(String field) {
        if (!needsQuotes(field)) {
            return field;
        }
        return dialect.quote() + field + dialect.quote();
    }

    private boolean needsQuotes(String field) {
        return field.indexOf(dialect.delimiter()) >= 0 || field.indexOf(dialect.quote()) >= 0;
    }
}
