import { css } from 'lit';

/** rl-run-compare's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const runCompareStyles = css`
  .grid { display: grid; gap: 0.4rem; }
  .row { display: grid; gap: 0.4rem; border-top: 1px solid var(--line); padding-top: 0.4rem; }
  .cell { min-width: 0; font-size: 0.8rem; border: 1px solid var(--line); border-radius: 6px; padding: 0.3rem 0.5rem; overflow-wrap: anywhere; }
  .cell.differs { border-color: #d4a000; background: #fffbea; }
  .field.differs { background: #ffe58a; border-radius: 3px; padding: 0 0.2rem; }
  .head { font-weight: 600; font-size: 0.8rem; overflow-wrap: anywhere; }
  .idx { font-size: 0.8rem; color: var(--muted); }
`;
