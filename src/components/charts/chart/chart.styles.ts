import { css } from 'lit';

/** rl-chart's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const chartStyles = css`
  :host { display: block; min-width: 0; }
  .drawing { min-height: 4rem; }
  /* the drawing shrinks to the column; the exported file keeps its width and height */
  .drawing svg { max-width: 100%; height: auto; display: block; }
  .table-wrap { overflow-x: auto; max-height: 18rem; overflow-y: auto; }
  table { border-collapse: collapse; font-size: 0.8rem; margin: 0.4rem 0; }
  td, th { text-align: left; padding: 0.2rem 0.5rem; border-bottom: 1px solid var(--line); white-space: nowrap; }
  .actions { display: flex; gap: 0.5rem; }
`;
