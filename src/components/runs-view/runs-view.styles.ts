import { css } from 'lit';

/** rl-runs-view's own styles (the element adopts panelStyles, shared-styles.ts, before them: the table's look is there). */
export const runsViewStyles = css`
  .filters { display: flex; flex-wrap: wrap; gap: var(--space-2) var(--space-3); align-items: end; margin: var(--space-2) 0 var(--space-3); }
  .filters label { margin: 0; }
  .filters input[type='search'] { width: 18rem; }
  .filters select { width: auto; }
  .keys { font-size: var(--text-xs); margin-left: auto; }
  /* the table scrolls in its box (panelStyles' .table-wrap): a 40-sample experiment does not push the opened run away */
  table { width: 100%; }
  /* thirteen columns: a little less room between them than other tables, so the list fits a 1280 px window */
  th, td { padding-inline: calc(var(--space-1) * 1.5); }
  th button { border: none; background: none; padding: 0; font: inherit; color: inherit; }
  th button:hover:not(:disabled) { background: none; color: var(--ink); }
  th.pick, td.pick { width: 1%; }
  tr.run { cursor: pointer; }
  tr.run:hover > td { background: var(--panel-2); }
  /* the keyboard's selection shows while the list has focus; the opened run keeps its edge and bold id */
  .list:focus-within tr.run[aria-selected='true'] > td { background: var(--accent-soft); }
  tr.run[aria-current='true'] > td:first-child { box-shadow: inset 3px 0 0 var(--accent); }
  tr.run[aria-current='true'] td[data-col='run'] code { font-weight: 700; }
  tr.run:focus-visible { outline: 3px solid var(--focus); outline-offset: -3px; }
  td[data-col='run'] code { margin-right: var(--space-1); }
  td.model { min-width: 7rem; max-width: 14rem; }
  td.reason { max-width: 12rem; }
  td[data-col='config'] { min-width: 8rem; }
  .exp, .cellpos { display: block; white-space: nowrap; }
  .exp { font-weight: 500; }
  button.copy, button.quiet { font-size: var(--text-xs); padding: 0 var(--space-1); border-color: var(--line); color: var(--muted); }
  button.copy { line-height: 1; padding: 2px; vertical-align: middle; }
  button.copy svg { display: block; }
  .status { display: inline-block; padding: 0 var(--space-2); border-radius: 999px; font-size: var(--text-xs); line-height: 1.6;
    background: var(--panel-2); color: var(--ink); }
  .status[data-kind='ok'] { background: var(--ok-soft); color: var(--ok); }
  .status[data-kind='bad'] { background: var(--bad-soft); color: var(--bad); }
  .confirm { border: 1px solid var(--bad); border-radius: var(--radius); padding: var(--space-2) var(--space-3); margin: var(--space-2) 0; }
  .open-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: var(--space-2) var(--space-3); margin-top: var(--space-4); }
  .open-head h3 { margin: 0; overflow-wrap: anywhere; }
  .open-head .actions { display: flex; flex-wrap: wrap; gap: var(--space-2); }
  /* a phone-narrow window: one card per run (a table that narrow is all scrolling) */
  @media (max-width: 40rem) {
    .table-wrap { max-height: none; border: none; }
    thead { display: none; }
    table, tbody, tr, td { display: block; }
    tr.run { border: 1px solid var(--line); border-radius: var(--radius); margin: var(--space-2) 0; padding: var(--space-1); }
    td { border: none; padding: 0 var(--space-1); }
    td.clip, td.model, td.reason { max-width: none; }
    td[data-label]::before { content: attr(data-label) ': '; color: var(--muted); }
  }
`;
