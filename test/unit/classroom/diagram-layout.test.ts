// The state-machine diagram's layout from real strategies: every state a node (start first, none overlapping, inside
// the drawing), every transition drawn once with its tool named, and the lit state as a run goes.
import { describe, expect, it } from 'vitest';
import { resolveStrategy } from '../../../worker/strategies/presets/index.ts';
import { strategyOutline } from '../../../worker/strategies/strategy-outline.ts';
import { currentState, layoutStateMachine, machineOfDraft, wrapText, type DiagramLayout } from '../../../src/components/classroom/diagram-layout.ts';

/** every tool name drawn on the diagram, once per transition it labels */
function drawnTransitions(layout: DiagramLayout): { tool: string; to: string; from: string }[] {
  const split = (lines: string[]) => lines.join(' ').replace(/^from any state: /, '').split(/,\s*/).filter(Boolean);
  return [
    ...layout.entries.flatMap((e) => split(e.lines).map((tool) => ({ tool, to: e.to, from: '*' }))),
    ...layout.arcs.flatMap((a) => a.tools.map((tool) => ({ tool, to: a.to, from: a.from }))),
    ...layout.nodes.flatMap((n) => n.selfLoops.map((tool) => ({ tool, to: n.name, from: n.name }))),
  ];
}

function expectTidy(layout: DiagramLayout) {
  const sorted = [...layout.nodes].sort((a, b) => a.y - b.y);
  sorted.forEach((n, i) => {
    expect(n.x).toBeGreaterThanOrEqual(0);
    expect(n.x + n.w).toBeLessThanOrEqual(layout.width);
    expect(n.y + n.h).toBeLessThanOrEqual(layout.height);
    if (i > 0) expect(n.y).toBeGreaterThanOrEqual(sorted[i - 1]!.y + sorted[i - 1]!.h);
  });
}

describe('layoutStateMachine', () => {
  it("RepairAgent: its four states, start first and marked, the final state marked, each transition labelled once", () => {
    const outline = strategyOutline(resolveStrategy('repairagent'));
    const layout = layoutStateMachine(outline);
    expect(layout.nodes.map((n) => n.name)).toEqual(['collect information to understand the bug', 'collect information to fix the bug', 'trying out candidate fixes', 'done']);
    expect(layout.nodes.filter((n) => n.start).map((n) => n.name)).toEqual(['collect information to understand the bug']);
    expect(layout.nodes.filter((n) => n.final).map((n) => n.name)).toEqual(['done']);
    expectTidy(layout);
    expect(drawnTransitions(layout).sort((a, b) => a.tool.localeCompare(b.tool))).toEqual(
      outline.transitions.map((t) => ({ tool: t.tool, to: t.to, from: t.from })).sort((a, b) => a.tool.localeCompare(b.tool)),
    );
    // a long state name wraps instead of leaving its box
    expect(layout.nodes[0]!.lines).toEqual(['collect information to', 'understand the bug']);
  });

  it('transitions between named states are arcs, a state to itself a note; the start state comes first whatever the order', () => {
    const outline = {
      states: [
        { name: 'test', description: '', tools: ['run'] },
        { name: 'edit', description: '', tools: ['patch'] },
        { name: 'end', description: '', tools: [] },
      ],
      transitions: [
        { tool: 'patch', from: 'edit', to: 'test' },
        { tool: 'fail', from: 'test', to: 'edit' },
        { tool: 'retry', from: 'test', to: 'edit' },
        { tool: 'look', from: 'edit', to: 'edit' },
        { tool: 'finish', from: '*', to: 'end' },
      ],
      startState: 'edit',
      finalStates: ['end'],
    };
    const layout = layoutStateMachine(outline);
    expect(layout.nodes.map((n) => n.name)).toEqual(['edit', 'test', 'end']);
    expect(layout.arcs.map((a) => [a.from, a.to, a.tools])).toEqual([['edit', 'test', ['patch']], ['test', 'edit', ['fail', 'retry']]]);
    expect(layout.nodes[0]!.selfLoops).toEqual(['look']);
    expect(drawnTransitions(layout)).toHaveLength(outline.transitions.length);
    expectTidy(layout);
  });

  it('every preset lays out inside its drawing', () => {
    for (const preset of ['repairagent', 'hafixagent', 'passerine', 'oneshot']) expectTidy(layoutStateMachine(strategyOutline(resolveStrategy(preset))));
  });
});

describe('currentState', () => {
  const outline = { startState: 'S1' };
  it('the pending turn\'s state, else where the last step ended, else the start', () => {
    expect(currentState(outline, [])).toBe('S1');
    expect(currentState(outline, [{ stateAfter: 'S2' }, { stateAfter: 'S3' }])).toBe('S3');
    expect(currentState(outline, [{ stateAfter: 'S2' }], 'S2b')).toBe('S2b');
  });
});

describe('wrapText', () => {
  it('wraps at word boundaries; a longer word keeps its own line', () => {
    expect(wrapText('from any state: goal_accomplished', 16)).toEqual(['from any state:', 'goal_accomplished']);
    expect(wrapText('', 10)).toEqual(['']);
  });
});

describe('machineOfDraft (the strategy editor\'s diagram)', () => {
  it('reads a well-formed draft, defaulting a transition\'s from to any state', () => {
    const spec = resolveStrategy('repairagent') as unknown as Record<string, unknown>;
    expect(machineOfDraft(spec)).toEqual({ states: strategyOutline(resolveStrategy('repairagent')).states, transitions: strategyOutline(resolveStrategy('repairagent')).transitions, startState: spec.startState, finalStates: spec.finalStates });
    expect(machineOfDraft({ states: [{ name: 'a' }, { name: 'b', tools: ['x', 3] }], startState: 'a', transitions: [{ tool: 'x', to: 'b' }] })).toEqual({
      states: [{ name: 'a', description: '', tools: [] }, { name: 'b', description: '', tools: ['x'] }],
      transitions: [{ tool: 'x', from: '*', to: 'b' }],
      startState: 'a',
      finalStates: [],
    });
  });

  it('draws nothing while the draft is half typed', () => {
    expect(machineOfDraft(undefined)).toBeUndefined();
    expect(machineOfDraft({ states: 'a', startState: 'a' })).toBeUndefined();
    expect(machineOfDraft({ states: [{ name: 1 }], startState: 'a' })).toBeUndefined();
    expect(machineOfDraft({ states: [{ name: 'a' }], startState: 'a', transitions: [{ tool: 'x' }] })).toBeUndefined();
  });
});
