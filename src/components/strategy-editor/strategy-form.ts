// The structured parts of the strategy editor: which tools each state offers (and the tool set as a whole), the
// reply parser, memory and budgets. Pure render helpers over a draft StrategySpec; every change goes through
// `edit`, which hands back a new draft (the editor validates it).
import { html } from 'lit';
import { OutputFormat } from '../../../worker/contracts/strategy.ts';

type Draft = Record<string, unknown>;
interface DraftState { name: string; description?: string; tools: string[] }

export type Edit = (change: (draft: Draft) => void) => void;

function states(draft: Draft): DraftState[] {
  return Array.isArray(draft.states) ? (draft.states as DraftState[]).filter((s) => s && Array.isArray(s.tools)) : [];
}

/** A state's tools as a list ('*' expanded to the toolkit's), so one tool can be taken out of it. */
function expanded(state: DraftState, toolkitTools: readonly string[]): string[] {
  return state.tools.includes('*') ? [...toolkitTools] : state.tools;
}

/** One checkbox per state and tool, and a tool-set toggle per tool that puts it in (or takes it out of) every state. */
export function renderToolTable(draft: Draft, toolkitTools: readonly string[], edit: Edit) {
  const all = states(draft);
  const offers = (s: DraftState, tool: string) => s.tools.includes('*') || s.tools.includes(tool);
  const setTool = (stateNames: string[], tool: string, on: boolean) =>
    edit((d) => {
      for (const s of states(d)) {
        if (!stateNames.includes(s.name)) continue;
        const list = expanded(s, toolkitTools).filter((t) => t !== tool);
        s.tools = on ? toolkitTools.filter((t) => list.includes(t) || t === tool) : list;
      }
    });
  return html`<table class="tools" data-testid="tool-table">
    <thead><tr><th scope="col">tool</th><th scope="col">in the strategy</th>${all.map((s) => html`<th scope="col">${s.name}</th>`)}</tr></thead>
    <tbody>
      ${toolkitTools.map((tool) => {
        const used = all.some((s) => offers(s, tool));
        return html`<tr data-tool=${tool}>
          <th scope="row"><code>${tool}</code></th>
          <td><input type="checkbox" name="toolset" aria-label="${tool} in every state" .checked=${used}
            @change=${(e: Event) => setTool(all.map((s) => s.name), tool, (e.target as HTMLInputElement).checked)} /></td>
          ${all.map(
            (s) => html`<td><input type="checkbox" name="state-tool" aria-label="${tool} in state ${s.name}" .checked=${offers(s, tool)}
              @change=${(e: Event) => setTool([s.name], tool, (e.target as HTMLInputElement).checked)} /></td>`,
          )}
        </tr>`;
      })}
    </tbody>
  </table>`;
}

/** A number field where empty means null (no limit). */
function numberField(label: string, name: string, value: unknown, set: (v: number | null) => void, nullable = true) {
  return html`<label>${label}
    <input type="number" name=${name} min="0" .value=${value === null || value === undefined ? '' : String(value)}
      placeholder=${nullable ? 'no limit' : ''}
      @change=${(e: Event) => {
        const text = (e.target as HTMLInputElement).value.trim();
        set(text === '' ? null : Number(text));
      }} /></label>`;
}

function obj(draft: Draft, key: string): Draft {
  const v = draft[key];
  if (v && typeof v === 'object' && !Array.isArray(v)) return v as Draft;
  const fresh: Draft = {};
  draft[key] = fresh;
  return fresh;
}

/** Parser (output format), memory and budgets as a form. */
export function renderSettingsForm(draft: Draft, edit: Edit) {
  const output = (draft.output ?? {}) as Draft;
  const memory = (draft.memory ?? {}) as Draft;
  const budgets = (draft.budgets ?? {}) as Draft;
  const setBudget = (key: string) => (v: number | null) => edit((d) => (obj(d, 'budgets')[key] = v));
  return html`<div class="form" data-testid="settings-form">
    <fieldset><legend>Parser</legend>
      <label>Reply format
        <select name="output-format" @change=${(e: Event) => edit((d) => (obj(d, 'output').format = (e.target as HTMLSelectElement).value))}>
          ${OutputFormat.options.map((f) => html`<option value=${f} ?selected=${output.format === f}>${f}</option>`)}
        </select></label>
    </fieldset>
    <fieldset><legend>Memory</legend>
      <label>Kind
        <select name="memory-kind" @change=${(e: Event) => edit((d) => (obj(d, 'memory').kind = (e.target as HTMLSelectElement).value))}>
          ${['full-history', 'dynamic-prompt'].map((k) => html`<option value=${k} ?selected=${memory.kind === k}>${k}</option>`)}
        </select></label>
      ${numberField('Cycles remembered (dynamic prompt)', 'cycles-remembered', memory.cyclesRemembered, (v) => edit((d) => (obj(d, 'memory').cyclesRemembered = v)))}
    </fieldset>
    <fieldset><legend>Budgets</legend>
      ${numberField('Steps', 'max-steps', budgets.maxSteps, setBudget('maxSteps'), false)}
      ${numberField('Tokens', 'max-tokens', budgets.maxTokens, setBudget('maxTokens'))}
      ${numberField('Cost (USD)', 'max-cost', budgets.maxCostUsd, setBudget('maxCostUsd'))}
      ${numberField('Wall time (ms)', 'max-wall-ms', budgets.maxWallMs, setBudget('maxWallMs'))}
      ${numberField('Validations', 'max-validations', budgets.maxValidations, setBudget('maxValidations'))}
    </fieldset>
  </div>`;
}

interface DraftTransition { tool: string; from?: string; to: string }

/** Renames a state everywhere the strategy names it (start, final states, transitions). */
function renameState(d: Draft, from: string, to: string) {
  const rename = (n: unknown) => (n === from ? to : n);
  for (const s of states(d)) if (s.name === from) s.name = to;
  d.startState = rename(d.startState);
  if (Array.isArray(d.finalStates)) d.finalStates = d.finalStates.map(rename);
  if (Array.isArray(d.transitions)) for (const t of d.transitions as DraftTransition[]) Object.assign(t, { from: rename(t.from ?? '*'), to: rename(t.to) });
}

/** States (name, description), start and final states, enforcement, and transitions as a form. */
export function renderStatesForm(draft: Draft, toolkitTools: readonly string[], edit: Edit) {
  const all = states(draft);
  const names = all.map((s) => s.name);
  const transitions = (Array.isArray(draft.transitions) ? draft.transitions : []) as DraftTransition[];
  const finals = (Array.isArray(draft.finalStates) ? draft.finalStates : []) as string[];
  const value = (e: Event) => (e.target as HTMLInputElement | HTMLSelectElement).value;
  const select = (name: string, label: string, current: string, options: readonly string[], set: (v: string) => void) =>
    html`<select name=${name} aria-label=${label} @change=${(e: Event) => set(value(e))}>${options.map((o) => html`<option value=${o} ?selected=${o === current}>${o}</option>`)}</select>`;
  return html`<div class="form" data-testid="states-form">
    <fieldset><legend>States</legend>
      ${all.map(
        (s, i) => html`<div class="row" data-state=${s.name}>
          <input type="text" name="state-name" aria-label="name of state ${i + 1}" .value=${s.name} @change=${(e: Event) => edit((d) => renameState(d, s.name, value(e)))} />
          <input type="text" name="state-description" aria-label="description of state ${s.name}" .value=${s.description ?? ''}
            @change=${(e: Event) => edit((d) => (states(d)[i]!.description = value(e)))} />
          <label><input type="checkbox" name="final-state" .checked=${finals.includes(s.name)}
            @change=${(e: Event) => edit((d) => (d.finalStates = (e.target as HTMLInputElement).checked ? [...finals, s.name] : finals.filter((f) => f !== s.name)))} /> final</label>
          <button name="remove-state" aria-label="remove state ${s.name}" @click=${() => edit((d) => (d.states = states(d).filter((_, j) => j !== i)))}>Remove</button>
        </div>`,
      )}
      <button name="add-state" @click=${() => edit((d) => (d.states = [...states(d), { name: `state-${names.length + 1}`, description: '', tools: [] }]))}>Add state</button>
      <label>Start state ${select('start-state', 'start state', String(draft.startState ?? ''), names, (v) => edit((d) => (d.startState = v)))}</label>
      <label>Enforcement ${select('state-enforcement', 'state enforcement', String(draft.stateEnforcement ?? 'advisory'), ['advisory', 'enforced'], (v) => edit((d) => (d.stateEnforcement = v)))}</label>
    </fieldset>
    <fieldset><legend>Transitions (after a tool ran)</legend>
      ${transitions.map(
        (t, i) => html`<div class="row" data-transition=${i}>
          from ${select('transition-from', `transition ${i + 1} from`, t.from ?? '*', ['*', ...names], (v) => edit((d) => ((d.transitions as DraftTransition[])[i]!.from = v)))}
          after ${select('transition-tool', `transition ${i + 1} tool`, t.tool, [...new Set([t.tool, ...toolkitTools])], (v) => edit((d) => ((d.transitions as DraftTransition[])[i]!.tool = v)))}
          to ${select('transition-to', `transition ${i + 1} to`, t.to, [...new Set([t.to, ...names])], (v) => edit((d) => ((d.transitions as DraftTransition[])[i]!.to = v)))}
          <button name="remove-transition" aria-label="remove transition ${i + 1}" @click=${() => edit((d) => (d.transitions = transitions.filter((_, j) => j !== i)))}>Remove</button>
        </div>`,
      )}
      <button name="add-transition" ?disabled=${!names.length || !toolkitTools.length}
        @click=${() => edit((d) => (d.transitions = [...transitions, { from: '*', tool: toolkitTools[0]!, to: names[0]! }]))}>Add transition</button>
    </fieldset>
  </div>`;
}
