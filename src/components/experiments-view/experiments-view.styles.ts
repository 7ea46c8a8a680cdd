import { css } from 'lit';

/** rl-experiments-view's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const experimentsViewStyles = css`
  :host { display: grid; gap: 1rem; }
  table.list { border-collapse: collapse; width: 100%; font-size: 0.85rem; }
  table.list td, table.list th { text-align: left; padding: 0.25rem 0.4rem; border-bottom: 1px solid var(--line); }
  .controls { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin: 0.4rem 0; }
  .progress { font-size: 0.85rem; }
`;
