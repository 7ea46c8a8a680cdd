import { css } from 'lit';

/** rl-blame-view's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const blameViewStyles = css`
  .pager { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin: 0.3rem 0; font-size: 0.85rem; }
  /* the code scrolls inside this box (both ways): the page itself never scrolls sideways */
  .blame { overflow: auto; max-height: 34rem; border: 1px solid var(--line); border-radius: 6px; background: var(--code-bg); font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.78rem; }
  .row { display: flex; width: max-content; min-width: 100%; line-height: 1.45; }
  .row.fault { background: #fff1c2; }
  .row.selected .gutter { background: #dbe6ff; }
  .gutter { position: sticky; left: 0; flex: 0 0 16rem; box-sizing: border-box; overflow: hidden; text-overflow: ellipsis; white-space: nowrap;
    padding: 0 0.4rem; background: #ecebe7; border: 0; border-right: 1px solid var(--line); border-radius: 0; font: inherit; text-align: left; color: var(--muted); cursor: pointer; }
  button.gutter { color: #24365f; }
  .gutter.first-of-run { border-top: 1px solid #d6d5d0; }
  .no { flex: 0 0 3.2rem; text-align: right; padding-right: 0.6rem; color: var(--muted); user-select: none; }
  .code { white-space: pre; padding-right: 0.6rem; }
`;
