import { css } from 'lit';

/** rl-runs-view's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const runsViewStyles = css`
  .filters { display: flex; flex-wrap: wrap; gap: 0.4rem 0.8rem; align-items: end; margin: 0.5rem 0; }
  .filters label { margin: 0; }
  .filters input[type='search'] { width: 14rem; max-width: 100%; }
  .filters select { width: auto; }
  .table-wrap { overflow-x: auto; max-width: 100%; }
  table { border-collapse: collapse; width: 100%; font-size: 0.8rem; }
  td, th { text-align: left; padding: 0.3rem 0.4rem; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: anywhere; }
  th button { border: none; background: none; padding: 0; font-weight: 600; font-size: 0.8rem; }
  tr.run { cursor: pointer; }
  tr.run:hover, tr.run[aria-selected='true'] { background: #f1f3f8; }
  td.reason { max-width: 14rem; }
  .confirm { border: 1px solid var(--bad); border-radius: 6px; padding: 0.5rem; margin: 0.5rem 0; }
  /* narrow windows: the list becomes one card per run instead of scrolling sideways */
  @media (max-width: 60rem) {
    thead { display: none; }
    table, tbody, tr, td { display: block; }
    tr.run { border: 1px solid var(--line); border-radius: 6px; margin: 0.4rem 0; padding: 0.2rem; }
    td { border: none; padding: 0.1rem 0.3rem; }
    td[data-label]::before { content: attr(data-label) ': '; color: var(--muted); }
  }
`;
