import { css } from 'lit';

/** rl-experiment-results's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const experimentResultsStyles = css`
  /* tables and charts off screen are neither laid out nor painted until scrolled near (1,000-trajectory results) */
  .table-wrap { overflow-x: auto; content-visibility: auto; contain-intrinsic-size: auto 12rem; }
  rl-chart { content-visibility: auto; contain-intrinsic-size: auto 40rem; }
  table { border-collapse: collapse; font-size: 0.8rem; }
  td, th { text-align: left; padding: 0.2rem 0.5rem; border-bottom: 1px solid var(--line); white-space: nowrap; }
  .charts { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(26rem, 1fr)); }
`;
