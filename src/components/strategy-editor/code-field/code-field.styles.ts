import { css } from 'lit';

/** rl-code-field's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const codeFieldStyles = css`
  :host { display: block; border: 1px solid var(--line-strong); border-radius: var(--radius-sm); background: var(--panel); min-width: 0; }
  :host(:focus-within) { outline: 2px solid var(--accent); outline-offset: 1px; }
  .cm-editor { max-height: 28rem; font-size: var(--text-sm); }
  .cm-scroller { overflow: auto; font-family: var(--font-mono); }
  .cm-editor.cm-focused { outline: none; }
`;
