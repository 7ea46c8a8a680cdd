import { css } from 'lit';

/** rl-run-outcome's own styles (the element adopts panelStyles, shared-styles.ts, before them). */
export const runOutcomeStyles = css`
  .outcome { margin-top: var(--space-3); }
`;
