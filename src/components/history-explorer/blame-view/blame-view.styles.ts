import { css } from 'lit';

/** rl-blame-view's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const blameViewStyles = css`
  .pager { display: flex; flex-wrap: wrap; align-items: center; gap: var(--space-2); margin: var(--space-1) 0; font-size: var(--text-sm); }
  /* the code scrolls inside this box (both ways): the page itself never scrolls sideways */
  .blame { overflow: auto; max-height: 34rem; border: 1px solid var(--line); border-radius: var(--radius); background: var(--code-bg);
    font-family: var(--font-mono); font-size: var(--text-xs); }
  .row { display: flex; width: max-content; min-width: 100%; line-height: 1.45; }
  .row.fault { background: var(--highlight); }
  .row.selected .gutter { background: var(--accent-soft); }
  .gutter { position: sticky; left: 0; flex: 0 0 16rem; box-sizing: border-box; overflow: hidden; text-overflow: ellipsis; white-space: nowrap;
    padding: 0 var(--space-2); background: var(--panel-2); border: 0; border-right: 1px solid var(--line); border-radius: 0; font: inherit; text-align: left;
    color: var(--muted); cursor: pointer; }
  button.gutter { color: var(--ink); }
  .gutter.first-of-run { border-top: 1px solid var(--line); }
  .no { flex: 0 0 3.2rem; text-align: right; padding-right: var(--space-3); color: var(--muted); user-select: none; }
  .code { white-space: pre; padding-right: var(--space-3); }
`;
