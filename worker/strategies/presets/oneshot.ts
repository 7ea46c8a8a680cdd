// one-shot: the simplest baseline, needing no toolkit. The prompt gives the bug report, the failing
// test's source and the fault-localized code with line numbers; the model answers with a unified diff,
// which the engine applies and validates. A diff that is malformed or does not apply is fed back,
// up to `maxSteps` attempts; the run ends at the first plausible patch.
import type { StrategySpecInput } from '../../contracts/strategy.ts';

const system = `You are an expert Java developer fixing a bug in an open-source library.
You are given a bug report, the failing test and the code that fault localization points at.
Reply with a short explanation and then the fix as ONE unified diff in a \`\`\`diff fenced block:
use the repository paths shown (--- a/<path> and +++ b/<path>), @@ hunk headers, a space before
each unchanged context line, '-' before each removed line and '+' before each added line.
Change only program code, never the tests.
`;

const instance = `# Bug {{ bug.id }}: {{ bug.title }}

{{ bug.body }}

## Failing tests
{% for t in bug.failing_tests %}
### {{ t.id }}{% if t.file %} ({{ t.file }}){% endif %}


\`\`\`java
{{ t.code }}
\`\`\`
{% endfor %}

## Suspicious code (fault localization; lines marked with '>')
{% for f in bug.fault_localization %}
### {{ f.file }}, line{% if f.lines | length > 1 %}s{% endif %} {{ f.lines | join(', ') }}{% if f.method %} in {{ f.method }}{% endif %} ({{ f.kind }})

\`\`\`java
{{ f.code }}
\`\`\`
{% endfor %}

Write the fix as a unified diff.
`;

const observation = `{{ result.output }}
{% if not result.ok or 'failing' in result.output or 'failed' in result.output %}

Reply with a corrected unified diff against the ORIGINAL buggy code shown above.
{% endif %}
`;

const formatError = `{{ error }}
`;

export const oneshotPreset: StrategySpecInput = {
  schemaVersion: 1,
  id: 'oneshot',
  name: 'One-shot diff',
  description: 'Bug report + failing test + fault-localized code in, a unified diff out; applied and validated by the engine, retried on failure.',
  follows: ['RepairLab baseline (no paper): a single-prompt repair with validation feedback'],
  toolkit: 'engine',
  states: [{ name: 'fix', description: 'write a patch', tools: ['apply_patch'] }],
  startState: 'fix',
  finalStates: [],
  transitions: [],
  stateEnforcement: 'enforced',
  prompt: { system, instance, observation, formatError },
  output: { format: 'unified-diff' },
  memory: { kind: 'full-history', cyclesRemembered: null },
  observation: { maxChars: 8000, head: 4000, tail: 4000 },
  middleware: { rectifyNames: 'off', levenshteinThreshold: 0.1, repairPaths: false, refuseRepeats: false, maxConsecutiveFormatErrors: 3 },
  stop: { onPlausible: true, sameErrorTwice: false, regressionRevert: false },
  budgets: { maxSteps: 3, maxTokens: null, maxCostUsd: null, maxWallMs: null, maxValidations: null, unknownPrice: 'ask' },
  sampling: { temperature: 0, trajectories: 1 },
  toolSettings: { revertBeforeApply: true },
  // one diff of program code, judged by the bug's tests (docs/presets/oneshot.md)
  testEdits: 'none',
};
