// repairagent — RepairAgent (Bouzenia, Devanbu, Pradel): a finite-state agent with a dynamic prompt
// rebuilt every cycle (paper Table I: role, goals, guidelines with fix patterns, state description,
// tools for the state, gathered information per tool, output format, last command + cycles used/left),
// JSON commands, 40 cycles. Defaults follow the paper; the released code's behaviours are variants.
import type { StrategySpecInput } from '../../contracts/strategy.ts';
import type { Variant } from './preset-variants.ts';

const S1 = 'collect information to understand the bug';
const S2 = 'collect information to fix the bug';
const S3 = 'trying out candidate fixes';
const DONE = 'done';

const system = `You are RepairAgent, an autonomous software engineer who fixes bugs in Java projects.
You work in cycles: in each cycle you call exactly one command and then see its result.
You cannot talk to a human; decide on your own.

## Goals
1. Find out what the bug is and why the failing test fails.
2. State a hypothesis about the cause, and refine or discard it as you learn more.
3. Gather the code you need to write a fix (methods, similar calls, related files).
4. Write candidate fixes with write_fix; each one is compiled and tested, and reverted when tests still fail.
5. Stop with goal_accomplished once a fix makes every test pass.

## Guidelines
- Use the bug information below: failing tests, the test code, and fault localization.
- Do not repeat a command with the same arguments; its result is already in your context.
- Line numbers in write_fix refer to the original (buggy) file.
- Typical fixes: change a comparison operator (< to <=, == to !=); swap variables or literals; change part of a
  name (min/max, start/end, first/last); make a condition stricter or looser; insert a missing statement or a
  null check; adjust a method call's arguments or signature; mind types and casts.
- Delete code through deletions, never by commenting it out; a fix that only changes comments fixes nothing.
`;

const cycle = `## Current state: {{ state.name }}
{{ state.description }}

## Commands available in this state
{% for t in tools %}
- {{ t.signature }}: {{ t.description }}
{% endfor %}

## Gathered information
### Bug
Bug {{ bug.id }}: {{ bug.title }}
{{ bug.body }}

Failing tests:
{% for t in bug.failing_tests %}
- {{ t.id }}{% if t.file %} ({{ t.file }}){% endif %}

{% endfor %}
{% if settings.faultLocalization == 'ochiai' %}
Fault localization: not given; call run_fault_localization to get suspicious lines.
{% else %}
Fault localization (the buggy lines):
{% for f in bug.fault_localization %}
- {{ f.file }} line{% if f.lines | length > 1 %}s{% endif %} {{ f.lines | join(', ') }}{% if f.method %} in {{ f.method }}{% endif %} ({{ f.kind }})
{% endfor %}
{% endif %}
{% if hypotheses | length > 0 %}

### Hypotheses
{% for h in hypotheses %}
- [{{ h.status }}] {{ h.text }}
{% endfor %}
{% endif %}
{% for name, label in [['extract_tests', 'Test code'], ['read_range', 'Lines read'], ['extract_method', 'Methods extracted'], ['get_classes_and_methods', 'Classes and methods'], ['search_code_base', 'Searches'], ['find_similar_api_calls', 'Similar calls'], ['generate_method_body', 'Generated method bodies'], ['run_fault_localization', 'Fault localization results'], ['run_tests', 'Test runs'], ['write_fix', 'Fixes tried']] %}
{% if gathered[name] %}

### {{ label }}
{% for e in gathered[name] %}
- {{ name }}({{ e.argsText }}) ({% if e.step < 0 %}before the first cycle{% else %}cycle {{ e.step + 1 }}{% endif %}):
{{ e.shown }}
{% endfor %}
{% endif %}
{% endfor %}
{% if banned_commands | length > 0 %}

### Commands that do not exist (do not use them)
{{ banned_commands | join(', ') }}
{% endif %}

## Output format
Reply with one JSON object and nothing else:
{"thoughts": "<your reasoning>", "command": {"name": "<command>", "args": {"<arg>": <value>}}}
{% if last %}

## Last command and result
{{ last.command }}
{{ last.result }}
{% endif %}

Cycles used: {{ step.used }} of {{ step.max }} ({{ step.left }} left).
`;

const unusedInstance = `(RepairAgent rebuilds its whole prompt every cycle; see prompt.cycle.)
`;

const observation = `{{ result.output }}
`;

const formatError = `Your last reply could not be used: {{ error }}
`;

const ALL_TOOLS = ['read_range', 'get_classes_and_methods', 'extract_method', 'extract_tests', 'search_code_base', 'find_similar_api_calls', 'generate_method_body', 'run_tests', 'run_fault_localization', 'write_fix', 'express_hypothesis', 'discard_hypothesis', 'collect_more_information', 'goal_accomplished'];

const repairAgentStates = [
  { name: S1, description: 'Understand the bug: read the failing test and the buggy code, then express a hypothesis.', tools: ['extract_tests', 'express_hypothesis', 'read_range', 'run_tests', 'run_fault_localization'] },
  { name: S2, description: 'Collect the information needed to fix the bug under your hypothesis, then try a fix with write_fix.', tools: ['search_code_base', 'get_classes_and_methods', 'find_similar_api_calls', 'extract_method', 'write_fix', 'read_range', 'generate_method_body'] },
  { name: S3, description: 'Try candidate fixes. If a fix fails, refine it, collect more information, or discard the hypothesis.', tools: ['write_fix', 'read_range', 'collect_more_information', 'discard_hypothesis', 'goal_accomplished'] },
  { name: DONE, description: 'The repair is finished.', tools: [] },
];

export const repairAgentPreset: StrategySpecInput = {
  schemaVersion: 1,
  id: 'repairagent',
  name: 'RepairAgent',
  description: 'LLM agent with a three-state machine, a dynamic prompt and 14 repair tools; JSON commands; 40 cycles (Bouzenia et al., ICSE 2025).',
  follows: [
    'paper §III-A: dynamic prompt sections (role, goals, guidelines with fix patterns, state, tools, gathered information, output format, last command, cycles left)',
    'paper §III-C: states and transitions (express_hypothesis → S2, discard_hypothesis → S1, collect_more_information → S2, write_fix → S3, goal_accomplished → done)',
    'paper §III-E: middleware — tool/argument names by substring then normalised Levenshtein < 0.1, file paths repaired, exact repeats refused',
    'released code: states are advisory (prompt only) — also the default here; "enforced-states" refuses off-state tools',
    'paper §III-D: run_tests once before the first cycle; its report joins the gathered information',
    'paper §IV: 40-cycle budget',
  ],
  toolkit: 'repairagent',
  states: repairAgentStates,
  startState: S1,
  finalStates: [DONE],
  transitions: [
    { tool: 'express_hypothesis', from: '*', to: S2 },
    { tool: 'discard_hypothesis', from: '*', to: S1 },
    { tool: 'collect_more_information', from: '*', to: S2 },
    { tool: 'write_fix', from: '*', to: S3 },
    { tool: 'goal_accomplished', from: '*', to: DONE },
  ],
  stateEnforcement: 'advisory',
  prompt: { system, instance: unusedInstance, cycle, observation, formatError },
  output: { format: 'json-command' },
  memory: { kind: 'dynamic-prompt', cyclesRemembered: null },
  observation: { maxChars: null, head: 0, tail: 0 },
  middleware: { rectifyNames: 'paper', levenshteinThreshold: 0.1, repairPaths: true, refuseRepeats: true, maxConsecutiveFormatErrors: 5 },
  stop: { onPlausible: false, sameErrorTwice: false, regressionRevert: false },
  budgets: { maxSteps: 40, maxTokens: null, maxCostUsd: null, maxWallMs: null, maxValidations: null, unknownPrice: 'ask' },
  sampling: { trajectories: 1 },
  startup: [{ tool: 'run_tests', args: {} }],
  toolSettings: { outputCap: 4000, searchMode: 'paper', writeFixMode: 'paper', faultLocalization: 'perfect', sampleVariants: false, variants: 30 },
  // write_fix changes program code; a fix is plausible when the project's own tests pass (docs/presets/repairagent.md)
  testEdits: 'none',
};

/** The paper's ablations (Table VI), the released code's behaviours and the practitioner stop rules. */
export const repairAgentVariants: Variant[] = [
  {
    id: 'code',
    description: "released code: exact tool names with argument substring mapping, keyword search on method names, write_fix as the code applies it",
    set: { middleware: { rectifyNames: 'code' }, toolSettings: { searchMode: 'code', writeFixMode: 'code' } },
  },
  { id: 'enforced-states', description: 'a command not allowed in the current state is refused with a message (paper: states restrict tools)', set: { stateEnforcement: 'enforced' } },
  { id: 'write-fix-variants', description: 'before each write_fix, sample 30 variants of the target lines with a second model and test them (logged, not shown)', set: { toolSettings: { sampleVariants: true, variants: 30 } } },
  {
    id: 'no-search-tools',
    description: 'ablation: without search_code_base, find_similar_api_calls and get_classes_and_methods',
    removeTools: ['search_code_base', 'find_similar_api_calls', 'get_classes_and_methods'],
  },
  {
    id: 'no-state-machine',
    description: 'ablation: one state with every tool; only goal_accomplished ends the run',
    set: {
      states: [
        { name: 'repair', description: 'Fix the bug using any command.', tools: ALL_TOOLS },
        { name: DONE, description: 'The repair is finished.', tools: [] },
      ],
      startState: 'repair',
      transitions: [{ tool: 'goal_accomplished', from: '*', to: DONE }],
    },
  },
  { id: 'single-cycle-memory', description: 'ablation: the prompt keeps only the last cycle\'s gathered information', set: { memory: { cyclesRemembered: 1 } } },
  { id: 'realistic-fl', description: 'ablation: no perfect fault localization in the prompt; run_fault_localization gives Ochiai (spectrum) results', set: { toolSettings: { faultLocalization: 'ochiai' } } },
];
