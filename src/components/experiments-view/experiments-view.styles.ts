import { css } from 'lit';

/** rl-experiments-view's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const experimentsViewStyles = css`
  /* minmax(0, 1fr): the column is the view's width, whatever a table or chart inside would like (they scroll in their box) */
  :host { display: grid; grid-template-columns: minmax(0, 1fr); gap: var(--space-4); }
  :host > * { min-width: 0; }
  table.list { width: 100%; }
  table.list td:nth-child(3) { font-variant-numeric: tabular-nums; white-space: nowrap; }
  .controls { display: flex; flex-wrap: wrap; gap: var(--space-2); align-items: center; margin: var(--space-2) 0; }
  .progress { font-size: var(--text-sm); }
`;
