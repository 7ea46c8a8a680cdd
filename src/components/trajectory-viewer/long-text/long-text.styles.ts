import { css } from 'lit';

/** rl-long-text's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const longTextStyles = css`
  pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.8rem; background: var(--code-bg, #f6f8fa); border-radius: 6px;
    padding: 0.5rem; margin: 0.3rem 0; white-space: pre-wrap; overflow-wrap: anywhere; }
  button { display: block; margin: 0.3rem 0; font: inherit; font-size: 0.8rem; cursor: pointer; }
  button:focus-visible { outline: 3px solid #1f6feb; outline-offset: 2px; }
  mark { background: #ffe58a; }
`;
