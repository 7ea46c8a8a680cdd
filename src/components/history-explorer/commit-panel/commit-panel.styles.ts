import { css } from 'lit';

/** rl-commit-panel's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const commitPanelStyles = css`
  section { border: 1px solid var(--line); border-radius: var(--radius); padding: var(--space-3); margin: var(--space-3) 0; background: var(--panel-2); }
  h4 { margin: 0 0 var(--space-1); font-size: var(--text-md); overflow-wrap: anywhere; }
  h4:focus { outline: none; }
  h4:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
  .meta { font-size: var(--text-xs); color: var(--muted); overflow-wrap: anywhere; }
  .head { display: flex; gap: var(--space-2); align-items: flex-start; justify-content: space-between; }
  .message { max-height: 12rem; }
  code { overflow-wrap: anywhere; }
`;
