import { css } from 'lit';

/** rl-history-explorer's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const historyExplorerStyles = css`
  :host { min-width: 0; }
  .explorer { border-top: 1px solid var(--line); margin-top: var(--space-3); padding-top: var(--space-2); min-width: 0; }
  .controls { display: flex; flex-wrap: wrap; gap: var(--space-1) var(--space-4); align-items: end; }
  .controls label { margin: var(--space-1) 0; min-width: 0; max-width: 100%; }
  .controls select { max-width: 100%; }
  .rev { font-size: var(--text-xs); color: var(--muted); overflow-wrap: anywhere; }
  .check { display: flex; gap: var(--space-2); align-items: center; }
  code { overflow-wrap: anywhere; }
`;
