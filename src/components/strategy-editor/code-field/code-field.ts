// A CodeMirror 6 editor as a lit element: Jinja highlighting for prompt templates (the jinja2 stream mode of
// @codemirror/legacy-modes: prompts are plain text with Jinja tags, so no HTML grammar is needed), JSON for the rest.
// Emits `code-changed` with the text on every edit. Tab is left to move the focus (no Tab-indent keymap), so the
// editor never traps keyboard users.
import { LitElement, html } from 'lit';
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView, drawSelection, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { StreamLanguage, bracketMatching, defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { jinja2 } from '@codemirror/legacy-modes/mode/jinja2';
import { json } from '@codemirror/lang-json';
import { codeFieldStyles } from './code-field.styles.ts';

export type CodeLanguage = 'jinja' | 'json';

const LANGUAGES: Record<CodeLanguage, () => Extension> = {
  jinja: () => StreamLanguage.define(jinja2),
  json: () => json(),
};

/**
 * @summary A CodeMirror 6 editor as a lit element: Jinja highlighting for prompt templates, JSON for the rest.
 *
 * Tab is left to move the focus (no Tab-indent keymap), so the editor never traps keyboard users.
 *
 * @fires code-changed - {string} the whole text, on every edit (bubbles, composed)
 *
 * @cssproperty --panel - surface of panels, cards, tables and fields
 * @cssproperty --line-strong - border of form controls and diagram edges
 * @cssproperty --accent - accent colour: primary buttons, the lit state, the current tab, the selection
 * @cssproperty --font-mono - the code typeface
 * @cssproperty --radius-sm - corner radius of small things (pills, fields)
 * @cssproperty --text-sm - type size sm (13 px)
 */
export class RlCodeField extends LitElement {
  static override properties = {
    value: {},
    language: {},
    label: {},
  };
  declare value: string;
  declare language: CodeLanguage;
  declare label: string;
  private view?: EditorView;
  /** set while a value from outside is put in: that is no edit to report */
  private external = false;

  constructor() {
    super();
    this.value = '';
    this.language = 'jinja';
    this.label = 'code';
  }

  static override styles = codeFieldStyles;

  override firstUpdated() {
    const parent = this.renderRoot.querySelector('div')!;
    this.view = new EditorView({
      parent,
      state: EditorState.create({
        doc: this.value,
        extensions: [
          lineNumbers(),
          history(),
          drawSelection(),
          highlightActiveLine(),
          bracketMatching(),
          EditorView.lineWrapping,
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          LANGUAGES[this.language](),
          EditorView.contentAttributes.of({ 'aria-label': this.label }),
          EditorView.updateListener.of((u) => {
            if (!u.docChanged || this.external) return;
            const text = u.state.doc.toString();
            this.value = text;
            this.dispatchEvent(new CustomEvent('code-changed', { detail: text, bubbles: true, composed: true }));
          }),
        ],
      }),
    });
  }

  override updated(changed: Map<string, unknown>) {
    // a new value from outside (another section chosen, a variant loaded): replace the text without echoing it back
    if (changed.has('value') && this.view && this.view.state.doc.toString() !== this.value) {
      this.external = true;
      try {
        this.view.dispatch({ changes: { from: 0, to: this.view.state.doc.length, insert: this.value } });
      } finally {
        this.external = false;
      }
    }
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.view?.destroy();
    this.view = undefined;
  }

  override render() {
    return html`<div></div>`;
  }
}
customElements.define('rl-code-field', RlCodeField);
