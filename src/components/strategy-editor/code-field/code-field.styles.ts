import { css } from 'lit';

/** rl-code-field's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const codeFieldStyles = css`
  :host { display: block; border: 1px solid var(--line, #ccc); border-radius: 4px; background: #fff; }
  :host(:focus-within) { outline: 2px solid var(--accent, #2563eb); outline-offset: 1px; }
  .cm-editor { max-height: 28rem; font-size: 0.8rem; }
  .cm-scroller { overflow: auto; font-family: ui-monospace, monospace; }
  .cm-editor.cm-focused { outline: none; }
`;
