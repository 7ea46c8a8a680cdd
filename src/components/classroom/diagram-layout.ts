// The state-machine diagram's layout, computed from a strategy's states and transitions (≤ 10 states, so a
// hand-made layout is enough and no graph-layout library is loaded): states top to bottom in the strategy's order
// (start state first), a transition from any state ('*') as a labelled arrow into its target from above, a transition
// between two named states as an arc on the left, one from a state to itself as a note inside the state.
import type { StrategyOutline } from '../../../worker/contracts/strategy.ts';

export const DIAGRAM_WIDTH = 360;
const NODE_X = 70;
const NODE_W = 270;
/** line heights of a state's name and of a transition's label */
export const LINE_H = 17;
export const NODE_PAD = 10;
export const GAP_LINE_H = 14;
const NODE_CHARS = 32;
const LABEL_CHARS = 40;

export interface DiagramNode {
  name: string;
  x: number;
  y: number;
  w: number;
  h: number;
  /** the name wrapped to fit */
  lines: string[];
  /** transitions from this state to itself, as a note */
  selfLoops: string[];
  start: boolean;
  final: boolean;
}

/** '*' transitions into one state: an arrow from above, labelled with the tools that fire it */
export interface DiagramEntry {
  to: string;
  lines: string[];
  x: number;
  /** first text line's baseline */
  y: number;
  arrow: { x: number; y1: number; y2: number };
}

export interface DiagramArc {
  from: string;
  to: string;
  tools: string[];
  path: string;
  label: { x: number; y: number; lines: string[] };
}

export interface DiagramLayout {
  width: number;
  height: number;
  nodes: DiagramNode[];
  entries: DiagramEntry[];
  arcs: DiagramArc[];
}

/** Words of `text` in lines of at most `max` characters (a longer word gets a line of its own). */
export function wrapText(text: string, max: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + 1 + word.length <= max) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.length ? lines : [''];
}

export function layoutStateMachine(outline: Pick<StrategyOutline, 'states' | 'transitions' | 'startState' | 'finalStates'>): DiagramLayout {
  const order = [...outline.states].sort((a, b) => Number(b.name === outline.startState) - Number(a.name === outline.startState));
  const wildcardInto = new Map<string, string[]>();
  const named = new Map<string, { from: string; to: string; tools: string[] }>();
  const selfLoops = new Map<string, string[]>();
  for (const t of outline.transitions) {
    if (t.from === '*') wildcardInto.set(t.to, [...(wildcardInto.get(t.to) ?? []), t.tool]);
    else if (t.from === t.to) selfLoops.set(t.to, [...(selfLoops.get(t.to) ?? []), t.tool]);
    else {
      const key = `${t.from}\u0000${t.to}`;
      const edge = named.get(key) ?? { from: t.from, to: t.to, tools: [] };
      edge.tools.push(t.tool);
      named.set(key, edge);
    }
  }

  const nodes: DiagramNode[] = [];
  const entries: DiagramEntry[] = [];
  let y = 8;
  for (const s of order) {
    const into = wildcardInto.get(s.name);
    if (into) {
      const lines = wrapText(`from any state: ${into.join(', ')}`, LABEL_CHARS);
      const top = y;
      y += lines.length * GAP_LINE_H + 14;
      entries.push({ to: s.name, lines, x: NODE_X + 28, y: top + GAP_LINE_H - 2, arrow: { x: NODE_X + 16, y1: top + 2, y2: y } });
    } else y += 18;
    const lines = wrapText(s.name, NODE_CHARS);
    const loops = selfLoops.get(s.name) ?? [];
    const h = NODE_PAD * 2 + (lines.length + (loops.length ? 1 : 0)) * LINE_H;
    nodes.push({ name: s.name, x: NODE_X, y, w: NODE_W, h, lines, selfLoops: loops, start: s.name === outline.startState, final: outline.finalStates.includes(s.name) });
    y += h;
  }

  const at = new Map(nodes.map((n) => [n.name, n]));
  const arcs: DiagramArc[] = [...named.values()].flatMap((e, i) => {
    const a = at.get(e.from);
    const b = at.get(e.to);
    if (!a || !b) return [];
    const ya = a.y + a.h / 2 + (a.y < b.y ? 6 : -6);
    const yb = b.y + b.h / 2 + (a.y < b.y ? -6 : 6);
    const bend = Math.max(8, NODE_X - 12 - (i % 4) * 12);
    const path = `M ${NODE_X} ${ya} C ${NODE_X - bend} ${ya}, ${NODE_X - bend} ${yb}, ${NODE_X} ${yb}`;
    return [{ ...e, path, label: { x: 2, y: (ya + yb) / 2, lines: wrapText(e.tools.join(', '), 10) } }];
  });
  return { width: DIAGRAM_WIDTH, height: y + 8, nodes, entries, arcs };
}

/**
 * The state to light: the state of the person's pending turn (the step in flight), else the state the last step
 * ended in, else the start state.
 */
export function currentState(outline: Pick<StrategyOutline, 'startState'>, steps: readonly { stateAfter?: string }[], pendingState?: string): string {
  return pendingState ?? steps[steps.length - 1]?.stateAfter ?? outline.startState;
}

/** the part of a strategy's outline the diagram draws */
export type Machine = Pick<StrategyOutline, 'states' | 'transitions' | 'startState' | 'finalStates'>;

const isString = (v: unknown): v is string => typeof v === 'string';

/** The draft's state machine, or undefined while its states or transitions are not well-formed. */
export function machineOfDraft(draft: Record<string, unknown> | undefined): Machine | undefined {
  if (!draft || !Array.isArray(draft.states) || !isString(draft.startState)) return undefined;
  const states = draft.states.map((s: unknown) => s as { name?: unknown; description?: unknown; tools?: unknown });
  if (!states.every((s) => s && isString(s.name))) return undefined;
  const transitions = Array.isArray(draft.transitions) ? draft.transitions.map((t: unknown) => t as { tool?: unknown; from?: unknown; to?: unknown }) : [];
  if (!transitions.every((t) => t && isString(t.tool) && isString(t.to) && (t.from === undefined || isString(t.from)))) return undefined;
  return {
    states: states.map((s) => ({ name: s.name as string, description: isString(s.description) ? s.description : '', tools: Array.isArray(s.tools) ? s.tools.filter(isString) : [] })),
    transitions: transitions.map((t) => ({ tool: t.tool as string, from: (t.from as string | undefined) ?? '*', to: t.to as string })),
    startState: draft.startState,
    finalStates: Array.isArray(draft.finalStates) ? draft.finalStates.filter(isString) : [],
  };
}
