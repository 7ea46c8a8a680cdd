import { css } from 'lit';

/** rl-long-text's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const longTextStyles = css`
  pre { font-family: var(--font-mono); font-size: var(--text-sm); background: var(--code-bg); border-radius: var(--radius);
    padding: var(--space-2); margin: var(--space-1) 0; white-space: pre-wrap; overflow-wrap: anywhere; }
  button { display: block; margin: var(--space-1) 0; font: inherit; font-size: var(--text-sm); cursor: pointer; }
  button:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
  mark { background: var(--highlight); color: inherit; }
`;
