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
];
