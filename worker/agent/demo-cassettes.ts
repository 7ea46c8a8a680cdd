// The demo cassettes' hand-written replies (for bug textkit-1, the bundled demo). Recorded through the
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
];
