import { css } from 'lit';

/** rl-run-form's own styles (the element adopts panelStyles, shared-styles.ts, before them). */
export const runFormStyles = css`
  .controls { display: flex; flex-wrap: wrap; gap: var(--space-2); align-items: center; margin-bottom: var(--space-3); }
  .controls select { width: auto; }
  .choices { display: grid; gap: var(--space-2); margin-bottom: var(--space-3); }
  .choices label { display: inline-flex; gap: var(--space-1); align-items: center; margin-right: var(--space-3); }
  .choices textarea { min-height: 3rem; }
  .offers { display: flex; flex-wrap: wrap; gap: var(--space-2); margin-top: var(--space-2); }
  textarea { min-height: 8rem; font-family: var(--font-mono); font-size: var(--text-sm); }
`;
