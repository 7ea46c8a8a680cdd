// The strategy editor: a preset (with named variants) as the starting point, every part of its StrategySpec editable —
// prompt templates in CodeMirror with Jinja highlighting, states and transitions, tools per state and the tool set,
// parser, memory, budgets, and the rest as JSON — validated against the zod schema as you type (an unknown key is
// refused by name), with the diff against the preset, the prompt preview beside it, and saved as a named local
// variant (src/state/variants.ts) that the run panel offers.
import { LitElement, html } from 'lit';
import { createTwoFilesPatch } from 'diff';
import type { BugSummary } from '../../../worker/contracts/bug-view.ts';
import type { EditableStrategy } from '../../../worker/contracts/editable-strategy.ts';
import { parseStrategySpec } from '../../../worker/contracts/strategy.ts';
import { deepMerge } from '../../../worker/strategies/presets/preset-variants.ts';
import { overridesBetween } from '../../../worker/strategies/strategy-overrides.ts';
import { getEngine } from '../../engine-client.ts';
import { deleteVariant, loadVariants, saveVariant, type SavedVariant } from '../../state/variants.ts';
import type { PresetChoice } from '../run-view/run-choices.ts';
import { panelStyles } from '../shared-styles.ts';
import { renderSettingsForm, renderStatesForm, renderToolTable, type Edit } from './strategy-form.ts';
import './code-field/code-field.ts';
import './prompt-preview/prompt-preview.ts';
import '../diff-view/diff-view.ts';
import { renderDraftDiagram } from '../classroom/draft-diagram.ts';
import { strategyEditorStyles } from './strategy-editor.styles.ts';

type Draft = Record<string, unknown>;
type Section = 'prompts' | 'states' | 'tools' | 'settings' | 'json';
const SECTIONS: { id: Section; label: string }[] = [
  { id: 'prompts', label: 'Prompts' },
  { id: 'states', label: 'States & transitions' },
  { id: 'tools', label: 'Tools' },
  { id: 'settings', label: 'Parser, memory, budgets' },
  { id: 'json', label: 'Everything (JSON)' },
];
const PROMPT_KEYS = ['system', 'instance', 'observation', 'formatError', 'cycle'] as const;
type PromptKey = (typeof PROMPT_KEYS)[number];
/** the top-level keys each JSON section edits (the full JSON section edits all of them) */
const JSON_KEYS: Partial<Record<Section, string[]>> = {
  states: ['startup'],
  settings: ['middleware', 'stop', 'observation', 'sampling', 'toolSettings'],
};

const pretty = (v: unknown) => JSON.stringify(v, null, 2);

/**
 * @summary The strategy editor: a preset as the starting point, every part of its StrategySpec editable, validated as
 * you type, with the diff against the preset and the prompt preview beside it; saved as a named local variant the run
 * form offers.
 *
 * @cssproperty --panel - surface of panels, cards, tables and fields
 * @cssproperty --line - border and rule colour
 * @cssproperty --accent - accent colour: primary buttons, the lit state, the current tab, the selection
 * @cssproperty --on-accent - text on the accent colour
 * @cssproperty --ok - colour of passes
 * @cssproperty --radius - corner radius of boxes
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 * @cssproperty --space-4 - spacing step 4 (16 px)
 */
export class RlStrategyEditor extends LitElement {
  static override properties = {
    bugs: { attribute: false },
    presets: { attribute: false },
    bugId: {},
    preset: { state: true },
    base: { state: true },
    draft: { state: true },
    section: { state: true },
    promptKey: { state: true },
    jsonText: { state: true },
    jsonError: { state: true },
    previewState: { state: true },
    name: { state: true },
    saved: { state: true },
    baseVariants: { state: true },
    message: { state: true },
    error: { state: true },
  };
  declare bugs: BugSummary[];
  declare presets: PresetChoice[];
  /** the bug the preview renders for */
  declare bugId: string | undefined;
  declare preset: string;
  declare base: EditableStrategy | undefined;
  declare draft: Draft | undefined;
  declare section: Section;
  declare promptKey: PromptKey;
  /** the text of the open JSON section as typed (it may not parse yet) */
  declare jsonText: string;
  declare jsonError: string | undefined;
  declare previewState: string | undefined;
  declare name: string;
  declare saved: SavedVariant[];
  /** the preset's named variants the edit started from */
  declare baseVariants: string[];
  declare message: string | undefined;
  declare error: string | undefined;
  private lastOverrides: { key: string; overrides: Record<string, unknown> } | undefined;

  constructor() {
    super();
    this.bugs = [];
    this.presets = [];
    this.preset = '';
    this.section = 'prompts';
    this.promptKey = 'system';
    this.jsonText = '';
    this.name = '';
    this.saved = loadVariants();
    this.baseVariants = [];
  }

  static override styles = [panelStyles, strategyEditorStyles];

  override updated(changed: Map<string, unknown>) {
    if (changed.has('presets') && !this.preset && this.presets.length) void this.load(this.presets[0]!.id);
  }

  /**
   * Starts editing a preset with named variants (their changes become part of the edit), or a saved variant's edit
   * of a preset.
   */
  private async load(preset: string, overrides: Record<string, unknown> = {}, name = '', variants: string[] = []) {
    this.error = undefined;
    this.message = undefined;
    try {
      const base = await getEngine().editableStrategy(preset, variants);
      this.preset = preset;
      this.baseVariants = variants;
      this.base = base;
      this.draft = deepMerge(structuredClone(base.strategy) as Draft, structuredClone(overrides));
      this.name = name;
      this.previewState = undefined;
      this.openSection(this.section);
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
  }

  private openSection(section: Section) {
    this.section = section;
    this.jsonError = undefined;
    const keys = section === 'json' ? undefined : JSON_KEYS[section];
    if (this.draft && (keys || section === 'json')) this.jsonText = pretty(keys ? Object.fromEntries(keys.filter((k) => k in this.draft!).map((k) => [k, this.draft![k]])) : this.draft);
  }

  private edit: Edit = (change) => {
    if (!this.draft) return;
    const next = structuredClone(this.draft);
    change(next);
    this.draft = next;
  };

  private onJson(text: string) {
    this.jsonText = text;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      this.jsonError = `JSON: ${(e as Error).message}`;
      return;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      this.jsonError = 'JSON: write an object of StrategySpec fields.';
      return;
    }
    this.jsonError = undefined;
    const keys = JSON_KEYS[this.section];
    if (!keys) this.draft = parsed as Draft;
    else this.edit((d) => {
      for (const k of keys) delete d[k];
      Object.assign(d, parsed);
    });
  }

  /** The edit as overrides of the preset, or what is wrong with it (schema first: it names unknown keys). */
  private checked(): { overrides?: Record<string, unknown>; error?: string } {
    if (!this.draft || !this.base) return {};
    if (this.jsonError) return { error: this.jsonError };
    try {
      parseStrategySpec(this.draft, 'the edited strategy');
      const overrides = overridesBetween(this.base.presetStrategy as unknown as Draft, this.draft);
      // the same edit keeps the same object, so the preview asks again only when the edit changed
      const key = `${this.preset}\n${JSON.stringify(overrides)}`;
      if (key !== this.lastOverrides?.key) this.lastOverrides = { key, overrides };
      return { overrides: this.lastOverrides.overrides };
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
  }

  private save(overrides: Record<string, unknown>) {
    try {
      this.saved = saveVariant({ name: this.name, preset: this.preset, overrides });
      this.message = `Saved “${this.name.trim()}”: the run panel offers it under “Saved variant”.`;
      this.error = undefined;
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
  }

  /** The preset's named variants as a starting point: ticking one reloads the preset with it (the edit so far is dropped). */
  private renderBaseVariants() {
    const variants = this.presets.find((p) => p.id === this.preset)?.variants ?? [];
    if (!variants.length) return '';
    const toggle = (id: string, on: boolean) => this.load(this.preset, {}, '', on ? [...this.baseVariants, id] : this.baseVariants.filter((v) => v !== id));
    return html`<div class="row" role="group" aria-label="start from the preset's variants"><span class="muted">Start from variants:</span>
      ${variants.map((v) => html`<label title=${v.description ?? ''}><input type="checkbox" name="editor-variant" value=${v.id} .checked=${this.baseVariants.includes(v.id)}
        @change=${(e: Event) => toggle(v.id, (e.target as HTMLInputElement).checked)} /> ${v.id}</label>`)}</div>`;
  }

  private renderSection() {
    const draft = this.draft!;
    if (this.section === 'prompts') {
      const prompt = (draft.prompt ?? {}) as Record<string, unknown>;
      const text = typeof prompt[this.promptKey] === 'string' ? (prompt[this.promptKey] as string) : '';
      return html`<div class="row" role="group" aria-label="prompt section">
          ${PROMPT_KEYS.map(
            (k) => html`<button name="prompt-key" value=${k} aria-pressed=${this.promptKey === k ? 'true' : 'false'} @click=${() => (this.promptKey = k)}>${k}${k in prompt ? '' : ' (unset)'}</button>`,
          )}
        </div>
        <rl-code-field data-testid="template-editor" language="jinja" label="prompt template ${this.promptKey}" .value=${text}
          @code-changed=${(e: CustomEvent<string>) => this.edit((d) => (((d.prompt ??= {}) as Record<string, unknown>)[this.promptKey] = e.detail))}></rl-code-field>`;
    }
    if (this.section === 'tools') return renderToolTable(draft, this.base!.toolkitTools, this.edit);
    const json = html`<rl-code-field data-testid="json-editor" language="json" label="strategy JSON (${this.section})" .value=${this.jsonText}
      @code-changed=${(e: CustomEvent<string>) => this.onJson(e.detail)}></rl-code-field>`;
    if (this.section === 'settings') return html`${renderSettingsForm(draft, this.edit)}<h3>Middleware, stop rules, observations, sampling, tool settings</h3>${json}`;
    if (this.section === 'states') return html`${renderStatesForm(draft, this.base!.toolkitTools, this.edit)}<h3>Startup commands (run before the first cycle)</h3>${json}`;
    return json;
  }

  override render() {
    const { overrides, error } = this.checked();
    const states = Array.isArray(this.draft?.states) ? (this.draft!.states as { name?: unknown }[]).map((s) => String(s?.name ?? '')) : [];
    return html`<div class="panel" data-testid="strategy-editor">
      <h2>Strategy editor</h2>
      <div class="row">
        <label>Preset <select name="editor-preset" @change=${(e: Event) => this.load((e.target as HTMLSelectElement).value)}>
          ${this.presets.map((p) => html`<option value=${p.id} ?selected=${p.id === this.preset}>${p.title}</option>`)}</select></label>
        <label>Saved variant <select name="editor-saved" @change=${(e: Event) => {
          const v = this.saved.find((x) => x.name === (e.target as HTMLSelectElement).value);
          if (v) void this.load(v.preset, v.overrides, v.name);
        }}>
          <option value="">—</option>
          ${this.saved.map((v) => html`<option value=${v.name} ?selected=${v.name === this.name}>${v.name} (${v.preset})</option>`)}</select></label>
        <label>Preview bug <select name="editor-bug" @change=${(e: Event) => (this.bugId = (e.target as HTMLSelectElement).value)}>
          <option value="">—</option>
          ${this.bugs.map((b) => html`<option value=${b.id} ?selected=${b.id === this.bugId}>${b.id}</option>`)}</select></label>
      </div>
      ${this.renderBaseVariants()}
      ${this.error ? html`<div class="error" data-testid="editor-error">${this.error}</div>` : ''}
      ${this.draft
        ? html`<div class="layout">
            <section aria-label="edit">
              <div role="tablist" aria-label="strategy parts">
                ${SECTIONS.map((s) => html`<button role="tab" name="editor-section" value=${s.id} aria-selected=${this.section === s.id ? 'true' : 'false'}
                  @click=${() => this.openSection(s.id)}>${s.label}</button>`)}
              </div>
              ${this.renderSection()}
              <div data-testid="validation" data-valid=${error ? 'no' : 'yes'}>
                ${error ? html`<div class="error">${error}</div>` : html`<div class="valid">Valid StrategySpec.</div>`}
              </div>
              <div class="row">
                <label>Name <input type="text" name="variant-name" .value=${this.name} placeholder="e.g. ${this.preset}-terse"
                  @input=${(e: Event) => (this.name = (e.target as HTMLInputElement).value)} /></label>
                <button class="primary" name="save-variant" ?disabled=${!overrides} @click=${() => overrides && this.save(overrides)}>Save variant</button>
                ${this.name && this.saved.some((v) => v.name === this.name)
                  ? html`<button name="delete-variant" @click=${() => {
                      this.saved = deleteVariant(this.name);
                      this.message = `Deleted “${this.name}”.`;
                    }}>Delete</button>`
                  : ''}
              </div>
              ${this.message ? html`<div class="muted" data-testid="editor-message">${this.message}</div>` : ''}
              <h3>Changes from the preset</h3>
              <rl-diff-view data-testid="strategy-diff" .diff=${this.strategyDiff()}></rl-diff-view>
            </section>
            <section aria-label="prompt preview">
              <h3>Prompt preview</h3>
              <label>State <select name="preview-state" @change=${(e: Event) => (this.previewState = (e.target as HTMLSelectElement).value)}>
                ${states.map((s) => html`<option value=${s} ?selected=${s === (this.previewState ?? this.draft!.startState)}>${s}</option>`)}</select></label>
              ${renderDraftDiagram(this.draft, this.previewState)}
              <rl-prompt-preview .bugId=${this.bugId} .preset=${this.preset} .overrides=${overrides} .state=${this.previewState}></rl-prompt-preview>
            </section>
          </div>`
        : html`<div class="muted">Loading the preset…</div>`}
    </div>`;
  }

  /** The edit against the preset: each changed prompt template as its own text diff, everything else as JSON. */
  private strategyDiff(): string {
    if (!this.draft || !this.base) return '';
    const preset = this.base.presetStrategy as unknown as Draft;
    const promptOf = (spec: Draft) => (spec.prompt && typeof spec.prompt === 'object' ? (spec.prompt as Record<string, unknown>) : {});
    const text = (v: unknown) => (typeof v === 'string' ? v : v === undefined ? '' : pretty(v));
    const templates = PROMPT_KEYS.filter((k) => text(promptOf(preset)[k]) !== text(promptOf(this.draft!)[k])).map((k) =>
      createTwoFilesPatch(`prompt.${k} (preset)`, `prompt.${k}`, text(promptOf(preset)[k]), text(promptOf(this.draft!)[k]), '', '', { context: 2 }),
    );
    const rest = (spec: Draft) => pretty({ ...spec, prompt: Object.fromEntries(Object.entries(promptOf(spec)).filter(([k]) => !(PROMPT_KEYS as readonly string[]).includes(k))) });
    const [before, after] = [rest(preset), rest(this.draft)];
    const others = before === after ? [] : [createTwoFilesPatch(`${this.preset} (preset)`, this.name || 'this edit', before, after, '', '', { context: 2 })];
    return [...templates, ...others].join('\n');
  }
}
customElements.define('rl-strategy-editor', RlStrategyEditor);
