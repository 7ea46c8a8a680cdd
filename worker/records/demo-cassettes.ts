// The demo cassettes' hand-written replies (textkit-1 with every preset, plus one HAFixAgent demo for a bug of
// each other category: SH textkit-3, SFMH numkit-3, MFMH textkit-4). Recorded through the
// engine by record-demo-cassettes.node.ts into public/cassettes/. Nobody should mistake them for model
// output: each cassette's provenance says the replies were written by hand.
export interface DemoCassetteSpec {
  file: string;
  bugId: string;
  preset: string;
  overrides: Record<string, unknown>;
  description: string;
  /** what a replay against the real runner should end with */
  expected: 'plausible' | 'implausible';
  replies: string[];
}

const STRINGS = 'src/main/java/org/repairlab/textkit/Strings.java';

const FIX = `A string whose length equals \`maxLength\` already fits, so the early return must use \`<=\` instead of \`<\`.

\`\`\`diff
--- a/${STRINGS}
+++ b/${STRINGS}
@@ -57,3 +57,3 @@
         }
-        if (s.length() < maxLength) {
+        if (s.length() <= maxLength) {
             return s;
\`\`\`
`;

const WRONG = `The cut seems one character too short; keep one more character before the ellipsis.

\`\`\`diff
--- a/${STRINGS}
+++ b/${STRINGS}
@@ -60,2 +60,2 @@
         }
-        return s.substring(0, maxLength - ellipsis.length()) + ellipsis;
+        return s.substring(0, maxLength - ellipsis.length() + 1) + ellipsis;
\`\`\`
`;

const TEST_FILE = 'src/test/java/org/repairlab/textkit/StringsTest.java';
const json = (thoughts: string, name: string, args: Record<string, unknown>) => JSON.stringify({ thoughts, command: { name, args } }, null, 2);
const bash = (thought: string, command: string) => `THOUGHT: ${thought}\n\n\`\`\`bash\n${command}\n\`\`\``;

/** RepairAgent: understand (test code, hypothesis) → collect (read the method) → try a fix → done. */
const REPAIRAGENT_REPLIES = [
  json('Start with the failing test to see what it expects.', 'extract_tests', { test_file_path: TEST_FILE }),
  json(
    'The test expects truncate("hello", 5) to return "hello". Fault localization points at the early return.',
    'express_hypothesis',
    { hypothesis: 'truncate only returns the string unchanged when it is shorter than maxLength; at exactly maxLength it still cuts. The check must be <= instead of <.' },
  ),
  json('Read the method around the buggy line.', 'read_range', { filepath: STRINGS, startline: 54, endline: 62 }),
  json('Line 58 compares with <; a string of exactly maxLength characters fits.', 'write_fix', {
    changes: [{ file_name: STRINGS, insertions: [], deletions: [], modifications: [{ line_number: 58, modified_line: '        if (s.length() <= maxLength) {' }] }],
  }),
  json('All tests pass with the fix.', 'goal_accomplished', { reason: 'truncate keeps strings of exactly maxLength characters; all tests pass' }),
];

/** HAFixAgent: look, read, edit with sed, test, signal completion. */
const HAFIX_REPLIES = [
  bash('Find the truncate implementation.', `grep -n "truncate" ${STRINGS}`),
  bash('Read the three-argument truncate.', `sed -n '54,62p' ${STRINGS}`),
  bash('A string of exactly maxLength characters fits, so the early return must use <=.', `sed -i 's/if (s.length() < maxLength) {/if (s.length() <= maxLength) {/' ${STRINGS}`),
  bash('Run the failing test.', 'test'),
  bash('The test passes; the repair is complete.', 'echo COMPLETE_REPAIR_SIGNAL'),
];

/** Passerine: cat, edit, test, finish. */
const PASSERINE_REPLIES = [
  `THOUGHT: Look at the code of truncate.\nACTION: cat ${STRINGS}`,
  `THOUGHT: Line 58 uses <, so a string of exactly maxLength characters is cut. Use <=.\nACTION: edit ${STRINGS} 58 58\n        if (s.length() <= maxLength) {`,
  'THOUGHT: Run the tests.\nACTION: test',
  'THOUGHT: The tests pass.\nACTION: finish success',
];

/** HAFixAgent on SH textkit-3: abbreviateMiddle keeps (keep + 1) / 2 characters at both ends, one too many for odd keep. */
const ABBREVIATE = 'src/main/java/org/repairlab/textkit/Strings.java';
const SH_REPLIES = [
  bash('Find abbreviateMiddle, the method the failing test calls.', `grep -n "abbreviateMiddle" ${ABBREVIATE}`),
  bash('Read the method.', `sed -n '88,100p' ${ABBREVIATE}`),
  bash(
    'For an odd keep both head and tail round up, so the result is one character longer than maxLength. The head takes the floor and the tail the rest.',
    `sed -i -e '97s|(keep + 1) / 2|keep / 2|' -e '98s|(keep + 1) / 2|keep - head|' ${ABBREVIATE} && sed -n '96,99p' ${ABBREVIATE}`,
  ),
  bash('Run the failing test.', 'test'),
  bash('The test passes; the repair is complete.', 'echo COMPLETE_REPAIR_SIGNAL'),
];

/** HAFixAgent on SFMH numkit-3: add and subtract scale each numerator by the other fraction's factor. */
const FRACTION = 'src/main/java/org/repairlab/numkit/Fraction.java';
const SFMH_REPLIES = [
  bash('Both failing tests use unlike denominators; find where the common denominator is used.', `grep -n "common" ${FRACTION}`),
  bash('Read add and subtract.', `sed -n '51,54p;73,76p' ${FRACTION}`),
  bash(
    'Each numerator must be scaled by common / its own denominator, but add and subtract use the other one. Swap the factors in both methods.',
    `sed -i 's|(common / other.den) \\([+-]\\) other.num \\* (common / den)|(common / den) \\1 other.num * (common / other.den)|' ${FRACTION} && grep -n "common /" ${FRACTION}`,
  ),
  bash('Run the failing tests.', 'test'),
  bash('Both tests pass; the repair is complete.', 'echo COMPLETE_REPAIR_SIGNAL'),
];

/** HAFixAgent on MFMH textkit-4: CaseFormat and Slugs both drop digits because they test isLetter. */
const TEXTKIT_MAIN = 'src/main/java/org/repairlab/textkit';
const MFMH_REPLIES = [
  bash('Both failing tests expect digits to be kept; look for the character test in the main sources.', `grep -rn "isLetter" ${TEXTKIT_MAIN}`),
  bash(
    'CaseFormat.words and Slugs.slugify treat only letters as word characters, so digits are dropped. Use isLetterOrDigit in both files.',
    `sed -i 's/Character.isLetter(c)/Character.isLetterOrDigit(c)/' ${TEXTKIT_MAIN}/CaseFormat.java ${TEXTKIT_MAIN}/Slugs.java && grep -rn "isLetter" ${TEXTKIT_MAIN}`,
  ),
  bash('Run the failing tests.', 'test'),
  bash('Both tests pass; the repair is complete.', 'echo COMPLETE_REPAIR_SIGNAL'),
];

export const DEMO_CASSETTES: DemoCassetteSpec[] = [
  {
    file: 'textkit-1.oneshot.fix.cassette.json',
    bugId: 'textkit-1',
    preset: 'oneshot',
    overrides: {},
    description: 'One-shot repair of textkit-1: one hand-written reply with the correct diff (< becomes <=).',
    expected: 'plausible',
    replies: [FIX],
  },
  {
    file: 'textkit-1.oneshot.wrong.cassette.json',
    bugId: 'textkit-1',
    preset: 'oneshot',
    overrides: { budgets: { maxSteps: 1 } },
    description: 'One-shot, one attempt: a hand-written wrong patch that compiles; the runner rejects it and names the failing test.',
    expected: 'implausible',
    replies: [WRONG],
  },
  {
    file: 'textkit-1.oneshot.format-error.cassette.json',
    bugId: 'textkit-1',
    preset: 'oneshot',
    overrides: {},
    description: 'One-shot: a first reply without a diff (fed back as a format error), then the correct diff.',
    expected: 'plausible',
    replies: ['The comparison in truncate looks off by one at the exact limit.', FIX],
  },
  {
    file: 'textkit-1.repairagent.fix.cassette.json',
    bugId: 'textkit-1',
    preset: 'repairagent',
    overrides: {},
    description: 'RepairAgent on textkit-1: test code, hypothesis, read the method, write_fix, goal_accomplished (hand-written replies).',
    expected: 'plausible',
    replies: REPAIRAGENT_REPLIES,
  },
  {
    file: 'textkit-1.hafixagent.fix.cassette.json',
    bugId: 'textkit-1',
    preset: 'hafixagent',
    overrides: {},
    description: 'HAFixAgent (non-history) on textkit-1: grep, sed -n, sed -i, test, completion signal (hand-written replies).',
    expected: 'plausible',
    replies: HAFIX_REPLIES,
  },
  {
    file: 'textkit-1.passerine.fix.cassette.json',
    bugId: 'textkit-1',
    preset: 'passerine',
    overrides: { sampling: { trajectories: 1 } },
    description: 'Passerine (one trajectory) on textkit-1: cat, edit, test, finish (hand-written replies).',
    expected: 'plausible',
    replies: PASSERINE_REPLIES,
  },
  {
    file: 'textkit-3.hafixagent.fix.cassette.json',
    bugId: 'textkit-3',
    preset: 'hafixagent',
    overrides: {},
    description: 'SH (single hunk) bug textkit-3 with HAFixAgent: grep, sed -n, sed -i on two lines of abbreviateMiddle, test, completion signal (hand-written replies).',
    expected: 'plausible',
    replies: SH_REPLIES,
  },
  {
    file: 'numkit-3.hafixagent.fix.cassette.json',
    bugId: 'numkit-3',
    preset: 'hafixagent',
    overrides: {},
    description: 'SFMH (single file, multiple hunks) bug numkit-3 with HAFixAgent: grep, sed -n, one sed -i fixing add and subtract, test, completion signal (hand-written replies).',
    expected: 'plausible',
    replies: SFMH_REPLIES,
  },
  {
    file: 'textkit-4.hafixagent.fix.cassette.json',
    bugId: 'textkit-4',
    preset: 'hafixagent',
    overrides: {},
    description: 'MFMH (multiple files, multiple hunks) bug textkit-4 with HAFixAgent: grep, one sed -i over CaseFormat and Slugs, test, completion signal (hand-written replies).',
    expected: 'plausible',
    replies: MFMH_REPLIES,
  },
];
