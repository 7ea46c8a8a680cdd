package org.repairlab.csv;

/** How a CSV file is written: field delimiter and quote character. Immutable. */
public final class CsvDialect {

    public static final CsvDialect DEFAULT = new CsvDialect(',', '"');

    private final char delimiter;
    private final char quote;

    private CsvDialect(char delimiter, char quote) {
        if (delimiter == quote) {
            throw new IllegalArgumentException("delimiter and quote must differ");
        }
        this.delimiter = delimiter;
        this.quote = quote;
    }

    public char delimiter() {
        return delimiter;
    }

    public char quote() {
        return quote;
    }

    public CsvDialect withDelimiter(char newDelimiter) {
        return new CsvDialect(newDelimiter, quote);
    }

    public CsvDialect withQuote(char newQuote) {
        return new CsvDialect(delimiter, newQuote);
    }
}
