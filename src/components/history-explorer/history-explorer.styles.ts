import { css } from 'lit';

/** rl-history-explorer's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const historyExplorerStyles = css`
  :host { min-width: 0; }
  .explorer { border-top: 1px solid var(--line); margin-top: 0.8rem; padding-top: 0.4rem; min-width: 0; }
  .controls { display: flex; flex-wrap: wrap; gap: 0.3rem 1rem; align-items: end; }
  .controls label { margin: 0.2rem 0; min-width: 0; max-width: 100%; }
  .controls select { max-width: 100%; }
  .rev { font-size: 0.8rem; color: var(--muted); overflow-wrap: anywhere; }
  .check { display: flex; gap: 0.4rem; align-items: center; }
  code { overflow-wrap: anywhere; }
`;
