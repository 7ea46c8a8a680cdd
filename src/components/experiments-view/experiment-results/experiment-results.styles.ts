import { css } from 'lit';

/** rl-experiment-results's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const experimentResultsStyles = css`
  /* tables and charts off screen are neither laid out nor painted until scrolled near (1,000-trajectory results) */
  .table-wrap { content-visibility: auto; contain-intrinsic-size: auto 12rem; margin-bottom: var(--space-2); }
  rl-chart { content-visibility: auto; contain-intrinsic-size: auto 40rem; }
  td { white-space: nowrap; }
  .denominators { font-size: var(--text-sm); margin: var(--space-2) 0; padding-left: var(--space-5); }
  .incomplete { color: var(--bad); }
  /* as many chart columns as fit at 26rem or more (one below 26rem: a chart never overflows its column) */
  .charts { display: grid; gap: var(--space-4); grid-template-columns: repeat(auto-fit, minmax(min(26rem, 100%), 1fr)); }
  .charts > * { min-width: 0; }
  rl-chart { border: 1px solid var(--line); border-radius: var(--radius-lg); padding: var(--space-3); background: var(--panel); }
`;
