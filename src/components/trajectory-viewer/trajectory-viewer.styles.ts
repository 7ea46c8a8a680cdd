import { css } from 'lit';

/** rl-trajectory-viewer's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const trajectoryViewerStyles = css`
  .bar { display: flex; flex-wrap: wrap; gap: var(--space-2) var(--space-3); align-items: center; margin-bottom: var(--space-2); }
  .bar input { width: 14rem; max-width: 100%; }
  .keys { font-size: var(--text-xs); }
  .layout { display: grid; grid-template-columns: minmax(11rem, 16rem) minmax(0, 1fr); gap: var(--space-3); align-items: start; }
  .layout.truth { grid-template-columns: minmax(11rem, 14rem) minmax(0, 1fr) minmax(0, 1fr); }
  @media (max-width: 60rem) { .layout, .layout.truth { grid-template-columns: minmax(0, 1fr); } }
  .layout > * { min-width: 0; }
  ol { list-style: none; margin: 0; padding: 0; max-height: 70vh; overflow-y: auto; border: 1px solid var(--line); border-radius: var(--radius); background: var(--panel); }
  li { display: flex; gap: var(--space-2); padding: var(--space-1) var(--space-2); font-size: var(--text-sm); cursor: pointer; border-bottom: 1px solid var(--line);
    overflow-wrap: anywhere; }
  li:hover { background: var(--panel-2); }
  li[aria-current='step'] { background: var(--accent-soft); font-weight: 600; box-shadow: inset 3px 0 0 var(--accent); }
  li.match { box-shadow: inset 3px 0 0 var(--warn); }
  li .n { color: var(--muted); min-width: 2.2rem; font-variant-numeric: tabular-nums; }
  li .v { margin-left: auto; white-space: nowrap; }
  .collapsed { padding: var(--space-2); border: 1px dashed var(--line); border-radius: var(--radius); }
  aside { border-left: 3px solid var(--ok); padding-left: var(--space-3); }
`;
