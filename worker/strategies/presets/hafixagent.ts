// hafixagent — HAFixAgent (history-aware repair on the mini-swe-agent loop): one bash command per reply,
// observations trimmed to head + tail, a completion sentinel, step / cost / wall-time guards, and the
// bug's blame history injected as context (non-history | fn_all | fn_pair | fl_diff).
import type { StrategySpecInput } from '../../contracts/strategy.ts';
import type { Variant } from './preset-variants.ts';

const system = `You are a helpful assistant that fixes bugs in Java projects by running bash commands.
Every reply has two parts: a short THOUGHT explaining your reasoning, then exactly ONE bash code block
with exactly one command (join several steps with && or ||). Replies with no bash block or with more than one are rejected.

Useful commands: grep, find, cat, head, tail, sed -n (read lines), sed -i (edit lines), echo, and:
  compile    builds the project
  test       runs the failing tests (or: test pkg.Class::method)
Commands do not keep state between replies (no cd, no exported variables).
When the fix is done and the tests pass, reply with: echo {{ sentinel }}
`;

const instance = `Fix the following bug in the repository (the current directory).

## Bug {{ bug.id }}: {{ bug.title }}
{{ bug.body }}

## Failing tests ({{ bug.failing_tests | length }})
{% for t in bug.failing_tests[:5] %}
- {{ t.id }}
{% endfor %}
{% if bug.failing_tests | length > 5 %}
- … and {{ bug.failing_tests | length - 5 }} more
{% endif %}

## Buggy locations (fault localization)
{% for f in bug.fault_localization %}
- {{ f.file }}, line{% if f.lines | length > 1 %}s{% endif %} {{ f.lines | join(', ') }}{% if f.method %}, method {{ f.method }}{% endif %}{% if f.className %}, class {{ f.className }}{% endif %} ({{ f.kind }})
{% endfor %}
{% if history_context %}

## Historical context ({{ settings.historyContext }})
{{ history_context }}
{% endif %}

Start by looking at the buggy code and the failing test. Change only program code, not the tests.
`;

const observation = `{{ result.output }}
`;

const formatError = `Format error: {{ error }}

Reply with a THOUGHT and exactly one \`\`\`bash block.
`;

export const hafixAgentPreset: StrategySpecInput = {
  schemaVersion: 1,
  id: 'hafixagent',
  name: 'HAFixAgent',
  description: 'History-aware bug fixing: a mini-swe-agent bash loop with blame-derived history context (fn_all, fn_pair, fl_diff); 50 steps.',
  follows: [
    'paper: one bash command per reply, observation = return code + output, >15,000 chars → first and last 7,500 kept',
    'paper: guards 50 steps, $1 cost, 1 hour wall time; completion signal COMPLETE_REPAIR_SIGNAL',
    'paper: context = bug report, failing tests (5 shown), perfect fault localization hunks; history from blame (fn_all | fn_pair | fl_diff)',
    'mini-swe-agent: format errors fed back, 3 in a row end the run',
    'released code (variant "code"): sentinel COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT, $0.5 cost limit, history from one blamed line',
  ],
  toolkit: 'hafixagent',
  states: [{ name: 'repair', description: 'run bash commands until the bug is fixed', tools: ['bash'] }],
  startState: 'repair',
  finalStates: [],
  transitions: [],
  stateEnforcement: 'enforced',
  prompt: { system, instance, observation, formatError },
  output: { format: 'bash-block' },
  memory: { kind: 'full-history', cyclesRemembered: null },
  observation: { maxChars: 15000, head: 7500, tail: 7500 },
  middleware: { rectifyNames: 'off', levenshteinThreshold: 0.1, repairPaths: false, refuseRepeats: false, maxConsecutiveFormatErrors: 3, completionSentinel: 'COMPLETE_REPAIR_SIGNAL' },
  stop: { onPlausible: false, sameErrorTwice: false, regressionRevert: false },
  budgets: { maxSteps: 50, maxTokens: null, maxCostUsd: 1, maxWallMs: 3_600_000, maxValidations: null, unknownPrice: 'ask' },
  sampling: { temperature: 0, trajectories: 1 },
  toolSettings: { completionSentinel: 'COMPLETE_REPAIR_SIGNAL', historyContext: 'non-history' },
  // success is Defects4J's failing tests passing; the bug's test files are read-only in its shell (docs/presets/hafixagent.md)
  testEdits: 'none',
};

export const hafixAgentVariants: Variant[] = [
  { id: 'fn_all', description: 'history context: names of all functions in the files the blame commit changed', set: { toolSettings: { historyContext: 'fn_all' } } },
  { id: 'fn_pair', description: 'history context: the buggy function before and after the blame commit', set: { toolSettings: { historyContext: 'fn_pair' } } },
  { id: 'fl_diff', description: "history context: the blame commit's diff of the buggy file", set: { toolSettings: { historyContext: 'fl_diff' } } },
  {
    id: 'code',
    description: 'released code: sentinel COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT, a $0.5 cost limit, and history from ONE blamed line (the first)',
    set: {
      middleware: { completionSentinel: 'COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT' },
      toolSettings: { completionSentinel: 'COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT', historyMode: 'code' },
      budgets: { maxCostUsd: 0.5 },
    },
  },
];
