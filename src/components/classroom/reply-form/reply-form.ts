import { LitElement, html } from 'lit';
import type { StrategyOutline } from '../../../../worker/contracts/strategy.ts';
import type { ToolArgument } from '../../../../worker/contracts/tools.ts';
import { panelStyles } from '../../shared-styles.ts';
import { argsFromFields, composeReply, fieldHint, outputFormatSection, ReplyFieldError, toolsAllowedIn, type OutlineTool } from '../compose-reply.ts';
import { replyFormStyles } from './reply-form.styles.ts';

/** Quoted alternatives a description names ('"success" or "failure"'): offered as suggestions for the field. */
export function suggestedValues(arg: ToolArgument): string[] {
  const quoted = [...arg.description.matchAll(/"([^"\s]+)"/g)].map((m) => m[1]!);
  return /"[^"\s]+"\s+or\s+"/.test(arg.description) ? quoted : [];
}

/**
 * @summary The person's turn as a form: the tools allowed in the current state, each argument as a field typed from the
 * tool's schema, and a thought.
 *
 * It shows the exact reply text it will send (compose-reply.ts) and the prompt's output-format section.
 *
 * @fires reply - {string} "Send the form's reply" with a complete form: the reply text, exactly as if typed
 *
 * @cssproperty --accent - accent colour: primary buttons, the lit state, the current tab, the selection
 * @cssproperty --font-mono - the code typeface
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 * @cssproperty --text-sm - type size sm (13 px)
 */
export class RlReplyForm extends LitElement {
  static override properties = {
    outline: { attribute: false },
    state: {},
    messages: { attribute: false },
    tool: { state: true },
    values: { state: true },
    thought: { state: true },
    error: { state: true },
  };
  declare outline: StrategyOutline | undefined;
  declare state: string | undefined;
  declare messages: { role: string; content: string }[];
  /** the chosen tool's name */
  declare tool: string | undefined;
  /** field texts by tool, then argument */
  declare values: Record<string, Record<string, string>>;
  declare thought: string;
  declare error: string | undefined;

  constructor() {
    super();
    this.messages = [];
    this.values = {};
    this.thought = '';
  }

  static override styles = [panelStyles, replyFormStyles];

  private get allowed(): OutlineTool[] {
    return this.outline ? toolsAllowedIn(this.outline, this.state) : [];
  }

  private get chosen(): OutlineTool | undefined {
    const tools = this.allowed;
    return tools.find((t) => t.name === this.tool) ?? (tools.length === 1 ? tools[0] : undefined);
  }

  private setValue(arg: string, value: string) {
    const tool = this.chosen;
    if (!tool) return;
    this.values = { ...this.values, [tool.name]: { ...this.values[tool.name], [arg]: value } };
    this.error = undefined;
  }

  /** The reply text, or the field error that stops it. */
  private compose(): { text?: string; error?: string; field?: string } {
    const tool = this.chosen;
    if (!this.outline || !tool) return { error: 'Choose a command first.' };
    try {
      const args = argsFromFields(tool, this.values[tool.name] ?? {});
      return { text: composeReply(this.outline.format, { tool, args, thought: this.thought }) };
    } catch (e) {
      if (e instanceof ReplyFieldError) return { error: e.message, field: e.field };
      throw e;
    }
  }

  private send() {
    const { text, error, field } = this.compose();
    this.error = error;
    if (text === undefined) {
      if (field) this.renderRoot.querySelector<HTMLElement>(`[name="arg-${field}"]`)?.focus();
      return;
    }
    this.dispatchEvent(new CustomEvent<string>('reply', { detail: text }));
  }

  private renderField(tool: OutlineTool, arg: ToolArgument) {
    const value = this.values[tool.name]?.[arg.name] ?? '';
    const name = `arg-${arg.name}`;
    const label = html`<b>${arg.name}</b>${arg.required ? '' : ' (optional)'} <span class="muted hint">— ${arg.description}; ${fieldHint(arg)}</span>`;
    const onInput = (e: Event) => this.setValue(arg.name, (e.target as HTMLInputElement).value);
    if (arg.type === 'boolean')
      return html`<label><input type="checkbox" name=${name} .checked=${value === 'true'} @change=${(e: Event) => this.setValue(arg.name, String((e.target as HTMLInputElement).checked))} /> ${label}</label>`;
    if (arg.type === 'integer') return html`<label>${label}<br /><input type="number" step="1" name=${name} .value=${value} @input=${onInput} /></label>`;
    const suggestions = arg.type === 'string' ? suggestedValues(arg) : [];
    if (suggestions.length)
      return html`<label>${label}<input type="text" name=${name} list=${`${name}-values`} .value=${value} @input=${onInput} />
        <datalist id=${`${name}-values`}>${suggestions.map((s) => html`<option value=${s}></option>`)}</datalist></label>`;
    const json = arg.type === 'object' || arg.type === 'object[]';
    return html`<label>${label}<textarea name=${name} class=${json ? 'json' : ''} .value=${value} @input=${onInput}
      placeholder=${json ? (arg.type === 'object[]' ? '[{ … }]' : '{ … }') : ''}></textarea></label>`;
  }

  override render() {
    if (!this.outline) return html``;
    const tools = this.allowed;
    const tool = this.chosen;
    const preview = tool ? this.compose() : undefined;
    const sentinel = this.outline.completionSentinel;
    return html`<div data-testid="reply-form">
      <h3>How to reply</h3>
      <pre class="format" data-testid="output-format">${outputFormatSection(this.messages, this.outline.format)}</pre>
      ${tools.length > 1
        ? html`<fieldset class="tools" data-testid="reply-tools"><legend>Command${this.state ? html` — allowed in <b>${this.state}</b>` : ''}</legend>
            ${tools.map((t) => html`<label><input type="radio" name="reply-tool" value=${t.name} .checked=${t.name === tool?.name}
              @change=${() => ((this.tool = t.name), (this.error = undefined))} />${t.name}</label>`)}</fieldset>`
        : ''}
      ${tool
        ? html`<div class="muted tool-desc" data-testid="reply-tool-description"><b>${tool.name}</b>: ${tool.description}</div>
            <label><b>Thought</b> <span class="muted hint">— your reasoning, sent with the command</span>
              <textarea name="reply-thought" .value=${this.thought} @input=${(e: Event) => (this.thought = (e.target as HTMLTextAreaElement).value)}></textarea></label>
            ${tool.args.map((a) => this.renderField(tool, a))}
            ${sentinel && tool.name === 'bash'
              ? html`<div class="muted">When the fix is done and the tests pass: <button name="fill-sentinel" @click=${() => this.setValue('command', `echo ${sentinel}`)}>echo ${sentinel}</button></div>`
              : ''}
            <div class="muted">The reply this sends:</div>
            <pre class="preview" data-testid="reply-preview">${preview?.text ?? html`<span class="muted">(not complete yet: ${preview?.error})</span>`}</pre>`
        : ''}
      ${this.error ? html`<div class="error" role="alert" data-testid="reply-form-error">${this.error}</div>` : ''}
      <div class="row"><button class="primary" name="send-form-reply" ?disabled=${!tool} @click=${this.send}>Send the form's reply</button></div>
    </div>`;
  }
}
customElements.define('rl-reply-form', RlReplyForm);
