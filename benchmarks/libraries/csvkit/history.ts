// csvkit — a small CSV reader/writer with dialects and a table view.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  MAVEN_JUNIT4_LAYOUT,
  addMembers,
  branch,
  commit,
  edit,
  editAll,
  fileReader,
  merge,
  rename,
  write,
  type LibraryDefinition,
} from '../../history-dsl.ts';

const file = fileReader(dirname(fileURLToPath(import.meta.url)));
const main = (name: string) => `src/main/java/org/repairlab/csv/${name}`;
const test = (name: string) => `src/test/java/org/repairlab/csv/${name}`;

const people = {
  jo: { name: 'Joanna Kowalska', email: 'joanna.kowalska@example.pl', tz: '+0100' },
  kim: { name: 'Kim Tran', email: 'kim@trans.example', tz: '+0700' },
  lee: { name: 'Lee Morgan', email: 'lmorgan@example.co.uk', tz: '+0000' },
};

export const csvkit: LibraryDefinition = {
  id: 'csvkit',
  description: 'CSV parsing and writing with dialects and a table view',
  layout: MAVEN_JUNIT4_LAYOUT,
  people,
  start: '2024-05-20T08:15:00Z',
  steps: [
    commit('jo', 'Initial commit', [
      write('README.md', file('README.md')),
      write('pom.xml', file('pom.xml')),
      write('.gitignore', 'target/\n*.iml\n'),
    ]),
    commit('jo', 'Add CsvParser for single lines', [
      write(main('CsvParser.java'), file('CsvParser.java')),
      write(test('CsvParserTest.java'), file('CsvParserTest.java')),
    ], { label: 'add-parser' }),
    commit('kim', 'Add CsvDialect; the parser takes its delimiter from it', [
      write(main('CsvDialect.java'), file('CsvDialect.java')),
      edit(main('CsvParser.java'), 'public final class CsvParser {\n', `public final class CsvParser {

    private final CsvDialect dialect;

    public CsvParser() {
        this(CsvDialect.DEFAULT);
    }

    public CsvParser(CsvDialect dialect) {
        this.dialect = dialect;
    }
`),
      edit(main('CsvParser.java'), "} else if (c == ',') {", '} else if (c == dialect.delimiter()) {'),
      addMembers(test('CsvParserTest.java'), `
    @Test
    public void semicolonDelimiter() {
        CsvParser semi = new CsvParser(CsvDialect.DEFAULT.withDelimiter(';'));
        assertEquals(Arrays.asList("a", "b,c"), semi.parseLine("a;b,c"));
    }`),
    ]),
    commit('jo', 'Add CsvWriter', [
      write(main('CsvWriter.java'), file('CsvWriter.java')),
      write(test('CsvWriterTest.java'), file('CsvWriterTest.java')),
    ]),
    commit('kim', 'Add CsvTable', [
      write(main('CsvTable.java'), file('CsvTable.java')),
      write(test('CsvTableTest.java'), file('CsvTableTest.java')),
    ]),
    commit('lee', 'README: quick start', [
      edit('README.md', '    mvn test\n', `    mvn test

## Quick start

    CsvTable table = CsvTable.parse(text, CsvDialect.DEFAULT);
    new CsvWriter(CsvDialect.DEFAULT).formatRow(List.of("a", "b,c"));   // a,"b,c"
`),
    ]),
    commit('jo', 'CsvParser: report unterminated quotes', [
      write(main('CsvException.java'), `package org.repairlab.csv;

/** Malformed CSV input. */
public class CsvException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public CsvException(String message, String line) {
        super(message + ": " + line);
    }
}
`),
      edit(main('CsvParser.java'), '        fields.add(field.toString());\n        return fields;\n', `        if (inQuotes) {
            throw new CsvException("unterminated quote", line);
        }
        fields.add(field.toString());
        return fields;
`),
      addMembers(test('CsvParserTest.java'), `
    @Test(expected = CsvException.class)
    public void unterminatedQuote() {
        parser.parseLine("a,\\"b");
    }`),
    ]),
    commit('kim', 'Make the quote character configurable', [
      edit(main('CsvParser.java'), `                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    inQuotes = false;`, `                if (c == dialect.quote()) {
                    inQuotes = false;`),
      addMembers(test('CsvParserTest.java'), `
    @Test
    public void dialectKeepsItsQuote() {
        assertEquals('\\'', CsvDialect.DEFAULT.withQuote('\\'').quote());
        assertEquals(';', CsvDialect.DEFAULT.withQuote('\\'').withDelimiter(';').delimiter());
    }`),
    ], { label: 'configurable-quote' }),
    commit('lee', 'CsvWriter: quote fields with line breaks', [
      edit(main('CsvWriter.java'), '        return field.indexOf(dialect.delimiter()) >= 0 || field.indexOf(dialect.quote()) >= 0;\n',
        "        return field.indexOf(dialect.delimiter()) > 0 || field.indexOf(dialect.quote()) >= 0\n            || field.indexOf('\\n') >= 0 || field.indexOf('\\r') >= 0;\n"),
      addMembers(test('CsvWriterTest.java'), `
    @Test
    public void lineBreaksAreQuoted() {
        assertEquals("\\"a\\nb\\",c", writer.formatRow(Arrays.asList("a\\nb", "c")));
    }`),
    ], { label: 'writer-linebreaks' }),
    commit('jo', 'CsvTable.column by header name', [
      edit(main('CsvTable.java'), 'import java.util.Collections;\nimport java.util.List;\n', 'import java.util.Collections;\nimport java.util.HashMap;\nimport java.util.List;\nimport java.util.Map;\n'),
      edit(main('CsvTable.java'), '    private final List<List<String>> rows;\n', '    private final List<List<String>> rows;\n    private final Map<String, Integer> columns = new HashMap<>();\n'),
      edit(main('CsvTable.java'), '        this.rows = Collections.unmodifiableList(rows);\n', `        this.rows = Collections.unmodifiableList(rows);
        for (int i = 0; i < header.size(); i++) {
            columns.put(header.get(i), i);
        }
`),
      addMembers(main('CsvTable.java'), `
    /** The values of one column, top to bottom; "" for rows that are too short. */
    public List<String> column(String name) {
        Integer index = columns.get(name);
        List<String> values = new ArrayList<>();
        for (List<String> row : rows) {
            values.add(index < row.size() ? row.get(index) : "");
        }
        return values;
    }`),
      addMembers(test('CsvTableTest.java'), `
    @Test
    public void columnByName() {
        CsvTable table = CsvTable.parse(PEOPLE, CsvDialect.DEFAULT);
        assertEquals(Arrays.asList("36", "28"), table.column("age"));
    }`),
    ], { label: 'table-column' }),
    commit('kim', 'Dialect option to trim unquoted fields', [
      edit(main('CsvDialect.java'), "    public static final CsvDialect DEFAULT = new CsvDialect(',', '\"');\n", "    public static final CsvDialect DEFAULT = new CsvDialect(',', '\"', false);\n"),
      edit(main('CsvDialect.java'), '    private final char quote;\n\n    private CsvDialect(char delimiter, char quote) {\n', '    private final char quote;\n    private final boolean trim;\n\n    private CsvDialect(char delimiter, char quote, boolean trim) {\n'),
      edit(main('CsvDialect.java'), '        this.quote = quote;\n    }\n', '        this.quote = quote;\n        this.trim = trim;\n    }\n'),
      edit(main('CsvDialect.java'), '        return new CsvDialect(newDelimiter, quote);\n', '        return new CsvDialect(newDelimiter, quote, trim);\n'),
      edit(main('CsvDialect.java'), '        return new CsvDialect(delimiter, newQuote);\n', '        return new CsvDialect(delimiter, newQuote, trim);\n'),
      addMembers(main('CsvDialect.java'), `
    /** Whether spaces around unquoted fields are dropped. */
    public boolean trim() {
        return trim;
    }

    public CsvDialect withTrim(boolean newTrim) {
        return new CsvDialect(delimiter, quote, newTrim);
    }`),
      edit(main('CsvParser.java'), '        boolean inQuotes = false;\n', '        boolean inQuotes = false;\n        boolean quoted = false;\n'),
      edit(main('CsvParser.java'), "            } else if (c == '\"') {\n                inQuotes = true;\n", "            } else if (c == '\"') {\n                inQuotes = true;\n                quoted = true;\n"),
      editAll(main('CsvParser.java'), '                fields.add(field.toString());\n                field.setLength(0);\n', '                fields.add(finish(field, quoted));\n                field.setLength(0);\n                quoted = false;\n'),
      edit(main('CsvParser.java'), '        fields.add(field.toString());\n        return fields;\n    }\n', `        fields.add(finish(field, quoted));
        return fields;
    }

    private String finish(StringBuilder field, boolean quoted) {
        return dialect.trim() && !quoted ? field.toString().trim() : field.toString();
    }
`),
      addMembers(test('CsvParserTest.java'), `
    @Test
    public void trimUnquotedFields() {
        CsvParser trimming = new CsvParser(CsvDialect.DEFAULT.withTrim(true));
        assertEquals(Arrays.asList("a", " b ", "c"), trimming.parseLine(" a ,\\" b \\", c"));
    }`),
    ], { label: 'trim' }),
    branch('feature/tsv'),
    commit('lee', 'Add CsvDialect.TSV', [
      edit(main('CsvDialect.java'), "    public static final CsvDialect DEFAULT = new CsvDialect(',', '\"', false);\n",
        "    public static final CsvDialect DEFAULT = new CsvDialect(',', '\"', false);\n\n    /** Tab-separated values. */\n    public static final CsvDialect TSV = new CsvDialect('\\t', '\"', false);\n"),
      addMembers(test('CsvParserTest.java'), `
    @Test
    public void tabSeparated() {
        assertEquals(Arrays.asList("a b", "c"), new CsvParser(CsvDialect.TSV).parseLine("a b\\tc"));
    }`),
    ], { branch: 'feature/tsv' }),
    commit('jo', 'CsvWriter.format writes whole tables', [
      addMembers(main('CsvWriter.java'), `
    /** Rows joined with "\\n", ending with a line break. */
    public String format(List<List<String>> rows) {
        StringBuilder out = new StringBuilder();
        for (List<String> row : rows) {
            out.append(formatRow(row)).append('\\n');
        }
        return out.toString();
    }`),
      addMembers(test('CsvWriterTest.java'), `
    @Test
    public void formatTable() {
        assertEquals("a,b\\n1,2\\n", writer.format(Arrays.asList(Arrays.asList("a", "b"), Arrays.asList("1", "2"))));
    }`),
    ]),
    commit('lee', 'README: TSV', [
      edit('README.md', '## Quick start\n', '## Quick start\n\nUse `CsvDialect.TSV` for tab-separated files.\n'),
    ], { branch: 'feature/tsv' }),
    merge('feature/tsv', 'kim', "Merge pull request #4 from lee/feature/tsv\n\nTab-separated dialect", 'merge-tsv'),
    commit('jo', 'CsvWriter: double quotes inside quoted fields', [
      edit(main('CsvWriter.java'), '        return dialect.quote() + field + dialect.quote();\n', '        return dialect.quote() + field.replace("\\"", "\\"\\"") + dialect.quote();\n'),
      addMembers(test('CsvWriterTest.java'), `
    @Test
    public void quotesAreDoubled() {
        assertEquals("\\"say \\"\\"hi\\"\\"\\"", writer.formatRow(Arrays.asList("say \\"hi\\"")));
    }`),
    ], { label: 'writer-escape' }),
    commit('kim', 'Rename CsvException to CsvFormatException', [
      rename(main('CsvException.java'), main('CsvFormatException.java')),
      editAll(main('CsvFormatException.java'), 'CsvException', 'CsvFormatException'),
      edit(main('CsvParser.java'), 'throw new CsvException(', 'throw new CsvFormatException('),
      edit(test('CsvParserTest.java'), '@Test(expected = CsvException.class)', '@Test(expected = CsvFormatException.class)'),
    ]),
    commit('lee', 'CsvTable.select keeps some columns', [
      addMembers(main('CsvTable.java'), `
    /** A table with only the named columns, in the given order. */
    public CsvTable select(String... names) {
        List<List<String>> selected = new ArrayList<>();
        for (int r = 0; r < rows.size(); r++) {
            selected.add(new ArrayList<>());
        }
        for (String name : names) {
            List<String> values = column(name);
            for (int r = 0; r < values.size(); r++) {
                selected.get(r).add(values.get(r));
            }
        }
        return new CsvTable(java.util.Arrays.asList(names), selected);
    }`),
      addMembers(test('CsvTableTest.java'), `
    @Test
    public void selectColumns() {
        CsvTable table = CsvTable.parse(PEOPLE, CsvDialect.DEFAULT).select("age");
        assertEquals(Arrays.asList("age"), table.header());
        assertEquals(Arrays.asList("28"), table.row(1));
    }`),
    ]),
    commit('jo', 'Changelog for 0.3.0', [
      write('CHANGELOG.md', '# Changelog\n\n## 0.3.0\n\n- Configurable quote character and trimming\n- TSV dialect\n- CsvTable.column and select\n- CsvException renamed to CsvFormatException\n'),
    ], { label: 'changelog-0.3.0' }),
    commit('kim', 'CsvParser.parse for multi-line text', [
      addMembers(main('CsvParser.java'), `
    /** Every non-empty line of {@code text}, parsed. */
    public List<List<String>> parse(String text) {
        List<List<String>> rows = new ArrayList<>();
        for (String line : text.split("\\r?\\n")) {
            if (!line.isEmpty()) {
                rows.add(parseLine(line));
            }
        }
        return rows;
    }`),
      addMembers(test('CsvParserTest.java'), `
    @Test
    public void parseSeveralLines() {
        assertEquals(2, parser.parse("a,b\\r\\n\\nc,d\\n").size());
    }`),
    ]),
    commit('lee', 'CsvTable: rows as maps', [
      addMembers(main('CsvTable.java'), `
    /** Row {@code index} as header name to value. */
    public Map<String, String> record(int index) {
        Map<String, String> record = new java.util.LinkedHashMap<>();
        List<String> row = rows.get(index);
        for (int i = 0; i < header.size(); i++) {
            record.put(header.get(i), i < row.size() ? row.get(i) : "");
        }
        return record;
    }`),
      addMembers(test('CsvTableTest.java'), `
    @Test
    public void recordByHeader() {
        CsvTable table = CsvTable.parse(PEOPLE, CsvDialect.DEFAULT);
        assertEquals("{name=Ada, age=36}", table.record(0).toString());
    }`),
    ]),
    commit('jo', 'Bump version to 0.4.0-SNAPSHOT', [edit('pom.xml', '<version>0.1.0-SNAPSHOT</version>', '<version>0.4.0-SNAPSHOT</version>')]),
    commit('kim', 'CsvDialect.toString', [
      addMembers(main('CsvDialect.java'), `
    @Override
    public String toString() {
        return "CsvDialect[delimiter=" + delimiter + ", quote=" + quote + ", trim=" + trim + "]";
    }`),
    ]),
    commit('lee', 'CsvTable.filter', [
      addMembers(main('CsvTable.java'), `
    /** Rows for which the predicate holds, same header. */
    public CsvTable filter(java.util.function.Predicate<Map<String, String>> keep) {
        List<List<String>> kept = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            if (keep.test(record(i))) {
                kept.add(rows.get(i));
            }
        }
        return new CsvTable(header, kept);
    }`),
      addMembers(test('CsvTableTest.java'), `
    @Test
    public void filterRows() {
        CsvTable table = CsvTable.parse(PEOPLE, CsvDialect.DEFAULT).filter(r -> r.get("name").startsWith("L"));
        assertEquals(1, table.rowCount());
    }`),
    ]),
    commit('jo', 'CsvWriter: javadoc for quoting rules', [
      edit(main('CsvWriter.java'), '/** Formats rows as CSV lines, quoting fields only when they need it. */',
        '/**\n * Formats rows as CSV lines. A field is quoted when it contains the delimiter, the quote character or a\n * line break; quote characters inside are doubled (RFC 4180).\n */'),
    ]),
    commit('kim', 'CsvTable.toCsv writes the table back', [
      addMembers(main('CsvTable.java'), `
    /** The table as CSV text in the given dialect, header first. */
    public String toCsv(CsvDialect dialect) {
        List<List<String>> all = new ArrayList<>();
        all.add(header);
        all.addAll(rows);
        return new CsvWriter(dialect).format(all);
    }`),
      addMembers(test('CsvTableTest.java'), `
    @Test
    public void roundTrip() {
        assertEquals("name,age\\nAda,36\\nLinus,28\\n", CsvTable.parse(PEOPLE, CsvDialect.DEFAULT).toCsv(CsvDialect.DEFAULT));
    }`),
    ]),
    commit('lee', 'README: writing tables', [
      edit('README.md', 'Use `CsvDialect.TSV` for tab-separated files.\n', 'Use `CsvDialect.TSV` for tab-separated files; `table.toCsv(dialect)` writes a table back.\n'),
    ]),
    commit('kim', 'CsvParser: explain the dialect in the javadoc', [
      edit(main('CsvParser.java'), '/** Parses one CSV line into fields. Quoted fields may contain commas and doubled quotes. */',
        '/**\n * Parses CSV lines into fields using a {@link CsvDialect}: its delimiter separates fields, its quote\n * character encloses fields that contain delimiters.\n */'),
    ]),
    commit('lee', 'CsvWriter: write null fields as empty', [
      edit(main('CsvWriter.java'), '            out.append(quoteIfNeeded(fields.get(i)));\n', '            String field = fields.get(i);\n            out.append(field == null ? "" : quoteIfNeeded(field));\n'),
      addMembers(test('CsvWriterTest.java'), `
    @Test
    public void nullIsEmpty() {
        assertEquals("a,,b", writer.formatRow(Arrays.asList("a", null, "b")));
    }`),
    ]),
    commit('jo', 'CsvTableTest: one fixture for all tests', [
      edit(test('CsvTableTest.java'), '    private static final String PEOPLE', '    /** Two people; the blank line must be skipped. */\n    private static final String PEOPLE'),
    ]),
    commit('jo', 'CsvTable.columnCount', [
      addMembers(main('CsvTable.java'), `
    public int columnCount() {
        return header.size();
    }`),
    ], { label: 'tip' }),
  ],
  bugs: [
    {
      id: 'csvkit-1',
      at: 'changelog-0.3.0',
      introducedBy: ['writer-linebreaks'],
      tests: {
        author: 'kim',
        message: 'CsvWriter: field starting with the delimiter',
        ops: [
          addMembers(test('CsvWriterTest.java'), `
    @Test
    public void leadingDelimiterIsQuoted() {
        assertEquals("\\",x\\",y", writer.formatRow(Arrays.asList(",x", "y")));
    }`),
        ],
      },
      fix: {
        author: 'lee',
        message: 'CsvWriter: a delimiter at position 0 needs quotes too',
        ops: [edit(main('CsvWriter.java'), 'return field.indexOf(dialect.delimiter()) > 0 ||', 'return field.indexOf(dialect.delimiter()) >= 0 ||')],
      },
      failingTests: ['org.repairlab.csv.CsvWriterTest::leadingDelimiterIsQuoted'],
      report: {
        title: 'Field starting with a comma written without quotes',
        body: 'Reading the file back gives one column too many.',
      },
      defectKinds: ['operator'],
    },
    {
      id: 'csvkit-2',
      at: 'trim',
      introducedBy: ['configurable-quote'],
      tests: {
        author: 'lee',
        message: 'CsvParser: doubled quotes inside a quoted field',
        ops: [
          addMembers(test('CsvParserTest.java'), `
    @Test
    public void doubledQuotesInsideQuotedField() {
        assertEquals(Arrays.asList("say \\"hi\\"", "x"), parser.parseLine("\\"say \\"\\"hi\\"\\"\\",x"));
    }`),
        ],
      },
      fix: {
        author: 'kim',
        message: 'CsvParser: a doubled quote inside quotes is a literal quote',
        ops: [
          edit(main('CsvParser.java'), '                if (c == dialect.quote()) {\n                    inQuotes = false;\n', `                if (c == dialect.quote() && i + 1 < line.length() && line.charAt(i + 1) == dialect.quote()) {
                    field.append(c);
                    i++;
                } else if (c == dialect.quote()) {
                    inQuotes = false;
`),
        ],
      },
      failingTests: ['org.repairlab.csv.CsvParserTest::doubledQuotesInsideQuotedField'],
      report: {
        title: 'Quotes inside quoted fields are lost',
        body: [
          'Files exported from Excel and LibreOffice escape a quote inside a quoted field by doubling it (RFC 4180, 2.7).',
          'csvkit drops those quotes:',
          '',
          'Input line:',
          '',
          '    "say ""hi""",x',
          '',
          'Expected fields: `say "hi"` and `x`',
          'Actual fields: `say hi` and `x`',
          '',
          'This worked in 0.1.0. Environment: Java 17, csvkit built from master.',
        ].join('\n'),
      },
      defectKinds: ['condition', 'missing-statement'],
    },
    {
      id: 'csvkit-3',
      at: 'tip',
      introducedBy: ['add-parser', 'writer-escape'],
      tests: {
        author: 'lee',
        message: 'Tests for a custom quote character',
        ops: [
          addMembers(test('CsvParserTest.java'), `
    @Test
    public void customQuoteCharacter() {
        CsvParser single = new CsvParser(CsvDialect.DEFAULT.withQuote('\\''));
        assertEquals(Arrays.asList("a", "b,c", "d"), single.parseLine("a,'b,c',d"));
    }`),
          addMembers(test('CsvWriterTest.java'), `
    @Test
    public void customQuoteIsDoubled() {
        CsvWriter single = new CsvWriter(CsvDialect.DEFAULT.withQuote('\\''));
        assertEquals("'it''s'", single.formatRow(Arrays.asList("it's")));
    }`),
        ],
      },
      fix: {
        author: 'kim',
        message: 'Use the dialect quote everywhere',
        ops: [
          edit(main('CsvParser.java'), "} else if (c == '\"') {", '} else if (c == dialect.quote()) {'),
          edit(main('CsvWriter.java'), 'field.replace("\\"", "\\"\\"")', 'field.replace(String.valueOf(dialect.quote()), String.valueOf(dialect.quote()) + dialect.quote())'),
        ],
      },
      failingTests: ['org.repairlab.csv.CsvParserTest::customQuoteCharacter', 'org.repairlab.csv.CsvWriterTest::customQuoteIsDoubled'],
      report: {
        title: "withQuote('\\'') is ignored",
        body: [
          "With `CsvDialect.DEFAULT.withQuote('\\'')` the parser still only treats double quotes as quotes, so `a,'b,c',d`",
          "is split into four fields. The writer quotes `it's` as `'it's'` without doubling the inner quote, which cannot",
          'be read back.',
        ].join('\n'),
      },
      defectKinds: ['literal', 'wrong-argument'],
    },
    {
      id: 'csvkit-4',
      at: 'tip',
      introducedBy: ['table-column'],
      tests: {
        author: 'jo',
        message: 'CsvTable: unknown column',
        ops: [
          addMembers(test('CsvTableTest.java'), `
    @Test(expected = IllegalArgumentException.class)
    public void unknownColumnIsReported() {
        CsvTable.parse(PEOPLE, CsvDialect.DEFAULT).column("email");
    }`),
        ],
      },
      fix: {
        author: 'jo',
        message: 'CsvTable.column: name the missing column',
        ops: [
          edit(main('CsvTable.java'), '        Integer index = columns.get(name);\n',
            '        Integer index = columns.get(name);\n        if (index == null) throw new IllegalArgumentException("no column named " + name);\n'),
        ],
      },
      failingTests: ['org.repairlab.csv.CsvTableTest::unknownColumnIsReported'],
      report: {
        title: 'NullPointerException from CsvTable.column("email")',
        body: 'when the header has no such column. Expected an IllegalArgumentException that names the column.',
      },
      defectKinds: ['null-check'],
    },
  ],
};
