// passerine — Passerine (Google's agentic APR): ReAct replies of THOUGHT + one ACTION over five commands
// (cat, code_search, edit, test, finish), the full history in the prompt, 25 steps, and N independent
// trajectories (20) sampled at temperature 0.2, top_p 0.95.
import type { StrategySpecInput } from '../../contracts/strategy.ts';
import type { Variant } from './preset-variants.ts';

const system = `You are an agent that repairs bugs in a Java code base. At each step, reply in this exact form:

THOUGHT: <your reasoning about what to do next>
ACTION: <command> <arguments>

Commands:
{% for t in tools %}
- {{ t.signature }}: {{ t.description }}
{% endfor %}

For edit, write "ACTION: edit <file> <start> <end>" and put the replacement lines on the following lines.
Run test after editing. When the tests pass, use "ACTION: finish success"; if you cannot fix the bug, "ACTION: finish failure".
`;

const instance = `Bug {{ bug.id }}: {{ bug.title }}

{{ bug.body }}

Failing tests:
{% for t in bug.failing_tests %}
- {{ t.id }}
{% endfor %}
`;

const observation = `OBSERVATION:
{{ result.output }}
`;

const formatError = `OBSERVATION:
{{ error }}
`;

export const passerinePreset: StrategySpecInput = {
  schemaVersion: 1,
  id: 'passerine',
  name: 'Passerine',
  description: 'ReAct agent (THOUGHT/ACTION) with cat, code_search, edit, test, finish; full history; 25 steps; 20 trajectories at T=0.2, top_p=0.95.',
  follows: [
    'paper: THOUGHT + one ACTION per reply; commands cat, code_search, edit, test, finish',
    'paper: the full history stays in the prompt; 25 steps per trajectory',
    'paper: 20 independent trajectories per bug, temperature 0.2, top_p 0.95 (plausible@k)',
  ],
  toolkit: 'passerine',
  states: [{ name: 'repair', description: 'investigate, edit and test until the bug is fixed', tools: ['cat', 'code_search', 'edit', 'test', 'finish'] }],
  startState: 'repair',
  finalStates: [],
  transitions: [],
  stateEnforcement: 'enforced',
  prompt: { system, instance, observation, formatError },
  output: { format: 'thought-action' },
  memory: { kind: 'full-history', cyclesRemembered: null },
  observation: { maxChars: null, head: 0, tail: 0 },
  middleware: { rectifyNames: 'off', levenshteinThreshold: 0.1, repairPaths: false, refuseRepeats: false, maxConsecutiveFormatErrors: 3 },
  stop: { onPlausible: false, sameErrorTwice: false, regressionRevert: false },
  budgets: { maxSteps: 25, maxTokens: null, maxCostUsd: null, maxWallMs: null, maxValidations: null, unknownPrice: 'ask' },
  sampling: { temperature: 0.2, topP: 0.95, trajectories: 20 },
  toolSettings: {},
  // the paper's framework lets the agent touch tests and patches the ground-truth test files back in before judging:
  // here it may add reproduction tests of its own, the bug's tests stay read-only (docs/presets/passerine.md)
  testEdits: 'add',
};

export const passerineVariants: Variant[] = [
  { id: 'single-trajectory', description: 'one trajectory instead of 20 (quick looks)', set: { sampling: { trajectories: 1 } } },
];
