import { css } from 'lit';

/** rl-run-form's own styles (the element adopts panelStyles, shared-styles.ts, before them). */
export const runFormStyles = css`
  .controls { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin-bottom: 0.6rem; }
  .controls select { width: auto; }
  .choices { display: grid; gap: 0.4rem; margin-bottom: 0.6rem; }
  .choices label { display: inline-flex; gap: 0.3rem; align-items: center; margin-right: 0.8rem; }
  .choices textarea { min-height: 3rem; }
  textarea { min-height: 8rem; font-family: ui-monospace, monospace; font-size: 0.8rem; }
`;
