// textkit — string utilities; the demo library. Its history is written as a changelog of file operations.
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
const main = (name: string) => `src/main/java/org/repairlab/textkit/${name}`;
const test = (name: string) => `src/test/java/org/repairlab/textkit/${name}`;

const people = {
  ana: { name: 'Ana Lima', email: 'ana.lima@example.org', tz: '-0300' },
  ben: { name: 'Ben Okafor', email: 'ben.okafor@example.org', tz: '+0100' },
  cai: { name: 'Cai Wen', email: 'cai.wen@example.org', tz: '+0800' },
};

export const textkit: LibraryDefinition = {
  id: 'textkit',
  description: 'string utilities: padding, truncation, word wrap, case conversion',
  layout: MAVEN_JUNIT4_LAYOUT,
  people,
  start: '2024-01-08T09:00:00Z',
  steps: [
    commit('ana', 'Initial commit: Maven layout and README', [
      write('README.md', file('README.md')),
      write('pom.xml', file('pom.xml')),
      write('.gitignore', 'target/\n*.class\n'),
    ]),
    commit('ana', 'Add Strings with isBlank and repeat', [
      write(main('Strings.java'), file('Strings.java')),
      write(test('StringsTest.java'), file('StringsTest.java')),
    ]),
    commit('ben', 'Add padding helpers', [
      addMembers(main('Strings.java'), `
    /** Pads on the left with {@code pad} up to {@code width} characters. */
    public static String padLeft(String s, int width, char pad) {
        if (s.length() >= width) {
            return s;
        }
        return repeat(String.valueOf(pad), width - s.length()) + s;
    }

    /** Pads on the right with {@code pad} up to {@code width} characters. */
    public static String padRight(String s, int width, char pad) {
        if (s.length() >= width) {
            return s;
        }
        return s + repeat(String.valueOf(pad), width - s.length());
    }`),
      addMembers(test('StringsTest.java'), `
    @Test
    public void padding() {
        assertEquals("007", Strings.padLeft("7", 3, '0'));
        assertEquals("ab..", Strings.padRight("ab", 4, '.'));
        assertEquals("long", Strings.padLeft("long", 2, ' '));
    }`),
    ]),
    commit('ana', 'Add truncate with an ellipsis', [
      addMembers(main('Strings.java'), `
    /** Shortens the string to at most {@code maxLength} characters, ending in "..." when cut. */
    public static String truncate(String s, int maxLength) {
        if (maxLength < 3) {
            throw new IllegalArgumentException("maxLength must be at least 3: " + maxLength);
        }
        if (s.length() <= maxLength) {
            return s;
        }
        return s.substring(0, maxLength - 3) + "...";
    }`),
      addMembers(test('StringsTest.java'), `
    @Test
    public void truncateCutsLongStrings() {
        assertEquals("hello...", Strings.truncate("hello world", 8));
        assertEquals("short", Strings.truncate("short", 10));
    }`),
    ]),
    commit('ben', 'Add CaseFormat for snake_case and camelCase', [
      write(main('CaseFormat.java'), file('CaseFormat.java')),
      write(test('CaseFormatTest.java'), file('CaseFormatTest.java')),
    ]),
    commit('cai', 'Add greedy word wrapping', [
      write(main('WordWrap.java'), file('WordWrap.java')),
      write(test('WordWrapTest.java'), file('WordWrapTest.java')),
    ]),
    commit('cai', 'Explain padding behaviour for long input in the docs', [
      edit(main('Strings.java'), '/** Pads on the left with {@code pad} up to {@code width} characters. */',
        '/**\n     * Pads on the left with {@code pad} up to {@code width} characters.\n     * Strings already as wide as {@code width} are returned unchanged.\n     */'),
      edit(main('Strings.java'), '/** Pads on the right with {@code pad} up to {@code width} characters. */',
        '/**\n     * Pads on the right with {@code pad} up to {@code width} characters.\n     * Strings already as wide as {@code width} are returned unchanged.\n     */'),
    ]),
    commit('ben', 'Support a custom ellipsis in truncate', [
      edit(main('Strings.java'), `    /** Shortens the string to at most {@code maxLength} characters, ending in "..." when cut. */
    public static String truncate(String s, int maxLength) {
        if (maxLength < 3) {
            throw new IllegalArgumentException("maxLength must be at least 3: " + maxLength);
        }
        if (s.length() <= maxLength) {
            return s;
        }
        return s.substring(0, maxLength - 3) + "...";
    }`, `    /** Shortens the string to at most {@code maxLength} characters, ending in "..." when cut. */
    public static String truncate(String s, int maxLength) {
        return truncate(s, maxLength, "...");
    }

    /** Shortens the string to at most {@code maxLength} characters, ending in {@code ellipsis} when cut. */
    public static String truncate(String s, int maxLength, String ellipsis) {
        if (maxLength < ellipsis.length()) {
            throw new IllegalArgumentException("maxLength " + maxLength + " is shorter than the ellipsis");
        }
        if (s.length() < maxLength) {
            return s;
        }
        return s.substring(0, maxLength - ellipsis.length()) + ellipsis;
    }`),
      addMembers(test('StringsTest.java'), `
    @Test
    public void truncateWithCustomEllipsis() {
        assertEquals("hello~", Strings.truncate("hello world", 6, "~"));
    }`),
    ], { label: 'custom-ellipsis' }),
    commit('cai', 'Add countMatches', [
      addMembers(main('Strings.java'), `
    /** Number of non-overlapping occurrences of {@code part} in {@code s}. */
    public static int countMatches(String s, String part) {
        if (part.isEmpty()) {
            return 0;
        }
        int count = 0;
        int from = 0;
        while ((from = s.indexOf(part, from)) >= 0) {
            count++;
            from += part.length();
        }
        return count;
    }`),
      addMembers(test('StringsTest.java'), `
    @Test
    public void countMatchesDoesNotOverlap() {
        assertEquals(2, Strings.countMatches("aaaa", "aa"));
        assertEquals(0, Strings.countMatches("abc", ""));
    }`),
    ]),
    commit('ana', 'README: usage examples', [
      edit('README.md', '    mvn test\n', `    mvn test

## Usage

    Strings.padLeft("7", 3, '0');           // "007"
    Strings.truncate("hello world", 8);      // "hello..."
    WordWrap.fill("the quick brown fox", 10);
    CaseFormat.camelToSnake("parseHttpHeader");
`),
    ], { label: 'readme-usage' }),
    commit('ben', 'Add camelToKebab', [
      addMembers(main('CaseFormat.java'), `
    /** "parseHttpHeader" to "parse-http-header". */
    public static String camelToKebab(String camel) {
        return camelToSnake(camel).replace('_', '-');
    }`),
      addMembers(test('CaseFormatTest.java'), `
    @Test
    public void camelToKebab() {
        assertEquals("parse-http-header", CaseFormat.camelToKebab("parseHttpHeader"));
    }`),
    ]),
    commit('cai', 'Add Strings.center', [
      addMembers(main('Strings.java'), `
    /** Centers the string in {@code width} characters; an odd leftover goes to the right. */
    public static String center(String s, int width, char pad) {
        int total = width - s.length();
        if (total <= 0) {
            return s;
        }
        int left = total / 2;
        return repeat(String.valueOf(pad), left) + s + repeat(String.valueOf(pad), total - left);
    }`),
      addMembers(test('StringsTest.java'), `
    @Test
    public void centerPutsTheOddPadOnTheRight() {
        assertEquals("**ab**", Strings.center("ab", 6, '*'));
        assertEquals("-a--", Strings.center("a", 4, '-'));
        assertEquals("wide", Strings.center("wide", 2, ' '));
    }`),
    ]),
    commit('ana', 'Rename WordWrap to TextWrap', [
      rename(main('WordWrap.java'), main('TextWrap.java')),
      editAll(main('TextWrap.java'), 'WordWrap', 'TextWrap'),
      rename(test('WordWrapTest.java'), test('TextWrapTest.java')),
      editAll(test('TextWrapTest.java'), 'WordWrap', 'TextWrap'),
      edit('README.md', 'WordWrap.fill', 'TextWrap.fill'),
    ], { label: 'rename-textwrap' }),
    commit('ana', 'TextWrap: keep paragraph breaks', [
      addMembers(main('TextWrap.java'), `
    /** Wraps each paragraph (separated by blank lines) on its own and keeps one blank line between them. */
    public static String fillParagraphs(String text, int width) {
        StringBuilder out = new StringBuilder();
        for (String paragraph : text.split("\\\\n\\\\s*\\\\n")) {
            if (paragraph.trim().isEmpty()) {
                continue;
            }
            if (out.length() > 0) {
                out.append("\\n\\n");
            }
            out.append(fill(paragraph, width));
        }
        return out.toString();
    }`),
      addMembers(test('TextWrapTest.java'), `
    @Test
    public void paragraphsStayApart() {
        assertEquals("one\\ntwo\\n\\nthree", TextWrap.fillParagraphs("one two\\n\\n\\nthree", 4));
    }`),
    ]),
    branch('feature/slugs'),
    commit('cai', 'Add Slugs.slugify', [
      write(main('Slugs.java'), file('Slugs.java')),
      write(test('SlugsTest.java'), file('SlugsTest.java')),
    ], { branch: 'feature/slugs', label: 'add-slugs' }),
    commit('ben', 'Add Strings.abbreviateMiddle', [
      addMembers(main('Strings.java'), `
    /** Keeps the start and the end of a long string around "...", e.g. for file paths. */
    public static String abbreviateMiddle(String s, int maxLength) {
        if (maxLength < 5) {
            throw new IllegalArgumentException("maxLength must be at least 5: " + maxLength);
        }
        if (s.length() <= maxLength) {
            return s;
        }
        int keep = maxLength - 3;
        int head = (keep + 1) / 2;
        int tail = keep / 2;
        return s.substring(0, head) + "..." + s.substring(s.length() - tail);
    }`),
      addMembers(test('StringsTest.java'), `
    @Test
    public void abbreviateMiddleKeepsBothEnds() {
        assertEquals("abc...hij", Strings.abbreviateMiddle("abcdefghij", 9));
        assertEquals("short", Strings.abbreviateMiddle("short", 9));
    }`),
    ], { label: 'abbreviate-middle' }),
    commit('cai', 'Slugs: optional maximum length, cut at a word boundary', [
      addMembers(main('Slugs.java'), `
    /** Like {@link #slugify(String)} but at most {@code maxLength} characters, cut at a dash when possible. */
    public static String slugify(String title, int maxLength) {
        String slug = slugify(title);
        if (slug.length() <= maxLength) {
            return slug;
        }
        int cut = slug.lastIndexOf('-', maxLength);
        return cut > 0 ? slug.substring(0, cut) : slug.substring(0, maxLength);
    }`),
      addMembers(test('SlugsTest.java'), `
    @Test
    public void cutsLongSlugsAtADash() {
        assertEquals("a-long", Slugs.slugify("A long title here", 8));
        assertEquals("abcde", Slugs.slugify("abcdefgh", 5));
    }`),
    ], { branch: 'feature/slugs' }),
    merge('feature/slugs', 'ana', "Merge branch 'feature/slugs'", 'merge-slugs'),
    commit('ana', 'Add Strings.commonPrefix', [
      addMembers(main('Strings.java'), `
    /** The longest common prefix of two strings. */
    public static String commonPrefix(String a, String b) {
        int n = Math.min(a.length(), b.length());
        int i = 0;
        while (i < n && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        return a.substring(0, i);
    }`),
      addMembers(test('StringsTest.java'), `
    @Test
    public void commonPrefix() {
        assertEquals("inter", Strings.commonPrefix("internal", "interval"));
        assertEquals("", Strings.commonPrefix("abc", "xyz"));
        assertEquals("ab", Strings.commonPrefix("ab", "abc"));
    }`),
    ], { label: 'common-prefix' }),
    commit('cai', 'abbreviateMiddle: keep more of the end, where file extensions are', [
      edit(main('Strings.java'), '        int tail = keep / 2;\n', '        int tail = (keep + 1) / 2;\n'),
    ], { label: 'abbreviate-tail' }),
    commit('ben', 'Add Tokenizer for shell-like words', [
      write(main('Tokenizer.java'), file('Tokenizer.java')),
      write(test('TokenizerTest.java'), file('TokenizerTest.java')),
    ]),
    commit('ana', 'Changelog for 0.2.0', [write('CHANGELOG.md', file('CHANGELOG.md'))], { label: 'changelog-0.2.0' }),
    commit('ben', 'CaseFormat: split identifiers into words', [
      edit(main('CaseFormat.java'), 'package org.repairlab.textkit;\n', 'package org.repairlab.textkit;\n\nimport java.util.ArrayList;\nimport java.util.List;\nimport java.util.Locale;\n'),
      addMembers(main('CaseFormat.java'), `
    /** Splits identifiers such as "parseHttpHeader" or "max_value" into lower-case words. */
    public static List<String> words(String identifier) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        for (int i = 0; i < identifier.length(); i++) {
            char c = identifier.charAt(i);
            boolean wordChar = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            if ((!wordChar || Character.isUpperCase(c)) && word.length() > 0) {
                words.add(word.toString().toLowerCase(Locale.ROOT));
                word.setLength(0);
            }
            if (wordChar) {
                word.append(c);
            }
        }
        if (word.length() > 0) {
            words.add(word.toString().toLowerCase(Locale.ROOT));
        }
        return words;
    }`),
      addMembers(test('CaseFormatTest.java'), `
    @Test
    public void wordsOfMixedIdentifiers() {
        assertEquals("[parse, http, header]", CaseFormat.words("parseHttpHeader").toString());
        assertEquals("[max, value]", CaseFormat.words("max_value").toString());
    }`),
    ]),
    commit('cai', 'Add CaseFormat.toTitle', [
      addMembers(main('CaseFormat.java'), `
    /** "parseHttpHeader" to "Parse Http Header". */
    public static String toTitle(String identifier) {
        StringBuilder out = new StringBuilder();
        for (String word : words(identifier)) {
            if (out.length() > 0) {
                out.append(' ');
            }
            out.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
        }
        return out.toString();
    }`),
      addMembers(test('CaseFormatTest.java'), `
    @Test
    public void toTitle() {
        assertEquals("Parse Http Header", CaseFormat.toTitle("parseHttpHeader"));
    }`),
    ]),
    commit('ben', 'Tokenizer: backslash escapes outside quotes', [
      edit(main('Tokenizer.java'), `            } else if (c == '\\'' || c == '"') {`, `            } else if (c == '\\\\' && i + 1 < line.length()) {
                word.append(line.charAt(++i));
                inWord = true;
            } else if (c == '\\'' || c == '"') {`),
      addMembers(test('TokenizerTest.java'), `
    @Test
    public void backslashEscapesASpace() {
        assertEquals(Arrays.asList("my file", "x"), Tokenizer.split("my\\\\ file x"));
    }`),
    ]),
    commit('ana', 'Unicode letters in slugs and identifier words', [
      edit(main('Slugs.java'), "            if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {", '            if (Character.isLetter(c)) {'),
      edit(main('Slugs.java'), '/** Lower-case letters and digits separated by single dashes; an empty slug for null. */',
        '/** Lower-case letters (any script) and digits separated by single dashes; an empty slug for null. */'),
      edit(main('CaseFormat.java'), "            boolean wordChar = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');",
        '            boolean wordChar = Character.isLetter(c);'),
      addMembers(test('SlugsTest.java'), `
    @Test
    public void keepsLettersOfOtherScripts() {
        assertEquals("\\u03c9mega-point", Slugs.slugify("\\u03a9mega point"));
    }`),
      addMembers(test('CaseFormatTest.java'), `
    @Test
    public void wordsWithNonAsciiLetters() {
        assertEquals("[gr\\u00fc\\u00dfe, welt]", CaseFormat.words("gr\\u00fc\\u00dfeWelt").toString());
    }`),
    ], { label: 'unicode-letters' }),
    commit('cai', 'Add Strings.defaultIfBlank', [
      addMembers(main('Strings.java'), `
    /** {@code fallback} when the string is blank, the string otherwise. */
    public static String defaultIfBlank(String s, String fallback) {
        return isBlank(s) ? fallback : s;
    }`),
      addMembers(test('StringsTest.java'), `
    @Test
    public void defaultIfBlank() {
        assertEquals("n/a", Strings.defaultIfBlank("  ", "n/a"));
        assertEquals("x", Strings.defaultIfBlank("x", "n/a"));
    }`),
    ]),
    commit('ana', 'Start 0.3.0 development', [edit('pom.xml', '<version>0.1.0-SNAPSHOT</version>', '<version>0.3.0-SNAPSHOT</version>')]),
    commit('ben', 'TextWrap: optional indent for continuation lines', [
      addMembers(main('TextWrap.java'), `
    /** Like {@link #fill(String, int)} but every line after the first starts with {@code indent}. */
    public static String fillHanging(String text, int width, String indent) {
        List<String> lines = wrap(text, width - indent.length());
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            if (i > 0) {
                out.append('\\n').append(indent);
            }
            out.append(lines.get(i));
        }
        return out.toString();
    }`),
      addMembers(test('TextWrapTest.java'), `
    @Test
    public void hangingIndent() {
        assertEquals("- one two\\n  three", TextWrap.fillHanging("- one two three", 11, "  "));
    }`),
    ]),
    commit('cai', 'README: Slugs and Tokenizer', [
      edit('README.md', '    CaseFormat.camelToSnake("parseHttpHeader");\n', `    CaseFormat.camelToSnake("parseHttpHeader");
    Slugs.slugify("Hello, World!");          // "hello-world"
    Tokenizer.split("echo 'a b' c");         // [echo, a b, c]
`),
    ]),
    commit('ana', 'Add Strings.reverse', [
      addMembers(main('Strings.java'), `
    /** The string reversed by code point (surrogate pairs stay intact). */
    public static String reverse(String s) {
        return new StringBuilder(s).reverse().toString();
    }`),
      addMembers(test('StringsTest.java'), `
    @Test
    public void reverse() {
        assertEquals("cba", Strings.reverse("abc"));
    }`),
    ]),
    commit('ben', 'StringsTest: group truncate tests', [
      edit(test('StringsTest.java'), '    @Test\n    public void truncateCutsLongStrings() {', '    // truncate\n\n    @Test\n    public void truncateCutsLongStrings() {'),
    ], { label: 'tip' }),
  ],
  bugs: [
    {
      id: 'textkit-1',
      at: 'readme-usage',
      introducedBy: ['custom-ellipsis'],
      tests: {
        author: 'ana',
        message: 'Test truncate at the length limit',
        ops: [
          addMembers(test('StringsTest.java'), `
    @Test
    public void truncateKeepsStringThatFitsExactly() {
        assertEquals("hello", Strings.truncate("hello", 5));
    }`),
        ],
      },
      fix: {
        author: 'ben',
        message: 'Do not truncate strings that fit exactly',
        ops: [edit(main('Strings.java'), 'if (s.length() < maxLength) {', 'if (s.length() <= maxLength) {')],
      },
      failingTests: ['org.repairlab.textkit.StringsTest::truncateKeepsStringThatFitsExactly'],
      report: {
        title: 'truncate() cuts strings that already fit',
        body: [
          'Since 0.2 `Strings.truncate` shortens a string even when it is exactly `maxLength` characters long.',
          '',
          'Steps to reproduce:',
          '',
          '    Strings.truncate("hello", 5)',
          '',
          'Expected: `"hello"` (the string fits, nothing to cut)',
          'Actual: `"he..."`',
          '',
          'Strings shorter than the limit are fine; it only happens at the exact limit.',
        ].join('\n'),
      },
      defectKinds: ['operator'],
    },
    {
      id: 'textkit-2',
      at: 'common-prefix',
      introducedBy: ['add-slugs'],
      tests: {
        author: 'cai',
        message: 'Slugs: test null titles',
        ops: [
          addMembers(test('SlugsTest.java'), `
    @Test
    public void nullTitleGivesAnEmptySlug() {
        assertEquals("", Slugs.slugify(null));
    }`),
        ],
      },
      fix: {
        author: 'cai',
        message: 'Slugs: return an empty slug for null, as documented',
        ops: [
          edit(main('Slugs.java'), '    public static String slugify(String title) {\n',
            '    public static String slugify(String title) {\n        if (title == null) return "";\n'),
        ],
      },
      failingTests: ['org.repairlab.textkit.SlugsTest::nullTitleGivesAnEmptySlug'],
      report: {
        title: 'NPE in Slugs.slugify(null)',
        body: 'Javadoc says null gives an empty slug; it throws NullPointerException instead.',
      },
      defectKinds: ['null-check', 'missing-statement'],
    },
    {
      id: 'textkit-3',
      at: 'changelog-0.2.0',
      introducedBy: ['abbreviate-middle', 'abbreviate-tail'],
      tests: {
        author: 'ana',
        message: 'Test abbreviateMiddle with an odd number of kept characters',
        ops: [
          addMembers(test('StringsTest.java'), `
    @Test
    public void abbreviateMiddleRespectsMaxLengthForOddKeep() {
        String shortened = Strings.abbreviateMiddle("abcdefghij", 8);
        assertEquals(8, shortened.length());
        assertEquals("ab...hij", shortened);
    }`),
        ],
      },
      fix: {
        author: 'ben',
        message: 'abbreviateMiddle: never exceed maxLength',
        ops: [
          edit(main('Strings.java'), '        int head = (keep + 1) / 2;\n        int tail = (keep + 1) / 2;\n',
            '        int head = keep / 2;\n        int tail = keep - head;\n'),
        ],
      },
      failingTests: ['org.repairlab.textkit.StringsTest::abbreviateMiddleRespectsMaxLengthForOddKeep'],
      report: {
        title: 'abbreviateMiddle returns strings longer than maxLength',
        body: [
          'We use `Strings.abbreviateMiddle` to fit file paths into a fixed-width column. Since upgrading to 0.2.0 some',
          'rows overflow the column by one character.',
          '',
          'Reproduction:',
          '',
          '    String s = Strings.abbreviateMiddle("abcdefghij", 8);',
          '    System.out.println(s + " " + s.length());',
          '',
          'Expected: a string of at most 8 characters, e.g. `ab...hij 8`',
          'Actual: `abc...hij 9`',
          '',
          'With maxLength 9 the result is fine. It looks like it depends on whether maxLength is odd or even.',
        ].join('\n'),
      },
      defectKinds: ['operator', 'wrong-variable'],
    },
    {
      id: 'textkit-4',
      at: 'tip',
      introducedBy: ['unicode-letters'],
      tests: {
        author: 'ben',
        message: 'Tests with digits in slugs and identifiers',
        ops: [
          addMembers(test('SlugsTest.java'), `
    @Test
    public void keepsDigits() {
        assertEquals("java-17-is-here", Slugs.slugify("Java 17 is here"));
    }`),
          addMembers(test('CaseFormatTest.java'), `
    @Test
    public void wordsKeepDigits() {
        assertEquals("[utf8, decoder]", CaseFormat.words("utf8Decoder").toString());
    }`),
        ],
      },
      fix: {
        author: 'ana',
        message: 'Digits are word characters again in slugs and identifier words',
        ops: [
          edit(main('Slugs.java'), 'if (Character.isLetter(c)) {', 'if (Character.isLetterOrDigit(c)) {'),
          edit(main('CaseFormat.java'), 'boolean wordChar = Character.isLetter(c);', 'boolean wordChar = Character.isLetterOrDigit(c);'),
        ],
      },
      failingTests: ['org.repairlab.textkit.CaseFormatTest::wordsKeepDigits', 'org.repairlab.textkit.SlugsTest::keepsDigits'],
      report: {
        title: 'Digits disappear from slugs',
        body: [
          'After updating to the latest snapshot, `Slugs.slugify("Java 17 is here")` gives `java-is-here`; it used to give',
          '`java-17-is-here`. `CaseFormat.toTitle("utf8Decoder")` has the same problem (`Utf Decoder`).',
        ].join('\n'),
      },
      defectKinds: ['wrong-method-called'],
    },
  ],
};
