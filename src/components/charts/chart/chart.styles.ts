import { css } from 'lit';

/** rl-chart's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const chartStyles = css`
  :host { display: block; min-width: 0; }
  h3 { margin-top: 0; }
  .drawing { min-height: 4rem; }
  /* the drawing scales to the column (its viewBox keeps the proportions); the exported file keeps its width and height */
  .drawing svg { width: 100%; max-width: 100%; height: auto; display: block; }
  .actions { display: flex; flex-wrap: wrap; gap: var(--space-2); margin: var(--space-2) 0; }
  /* the chart's numbers: a short box of their own, scrolled inside */
  .table-wrap { max-height: 18rem; }
  td { white-space: nowrap; }
`;
