import { css } from 'lit';

/** rl-run-compare's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const runCompareStyles = css`
  .grid { display: grid; gap: var(--space-2); }
  .row { display: grid; gap: var(--space-2); border-top: 1px solid var(--line); padding-top: var(--space-2); }
  .cell { min-width: 0; font-size: var(--text-sm); border: 1px solid var(--line); border-radius: var(--radius); padding: var(--space-1) var(--space-2); overflow-wrap: anywhere; }
  .cell.differs { border-color: var(--warn); background: var(--warn-soft); }
  .field.differs { background: var(--highlight); border-radius: var(--radius-sm); padding: 0 var(--space-1); }
  .head { font-weight: 600; font-size: var(--text-sm); overflow-wrap: anywhere; }
  .idx { font-size: var(--text-xs); color: var(--muted); }
`;
