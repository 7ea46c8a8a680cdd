import { css } from 'lit';

/** rl-review-view's own styles (the element adopts panelStyles, shared-styles.ts, before them). */
export const reviewViewStyles = css`
  .pick { display: flex; gap: var(--space-2); align-items: end; flex-wrap: wrap; }
  .sides { display: grid; grid-template-columns: 1fr 1fr; gap: var(--space-3); }
  .keys button { min-width: 9em; }
  .keys kbd { font-family: var(--font-mono); font-size: var(--text-xs); }
  .item:focus { outline: 2px solid var(--focus); }
  .label-correct { color: var(--ok); }
  .label-overfitting { color: var(--bad); }
  .label-unsure { color: var(--warn); }
  .evidence { border-left: 3px solid var(--warn); padding-left: var(--space-2); }
  .evidence-overfitting-evidence { color: var(--bad); }
  .evidence-no-difference { color: var(--ok); }
  .evidence-not-applicable { color: var(--warn); }
`;
