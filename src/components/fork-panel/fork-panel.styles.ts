import { css } from 'lit';

/** rl-fork-panel's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const forkPanelStyles = css`
  .panel { margin: var(--space-3) 0; }
  fieldset { border: 1px solid var(--line); border-radius: var(--radius); margin: var(--space-2) 0; padding: var(--space-1) var(--space-3); min-width: 0; }
  fieldset label { display: flex; gap: var(--space-2); align-items: center; }
  textarea { min-height: 4rem; font-family: var(--font-mono); font-size: var(--text-sm); }
  .actions { display: flex; flex-wrap: wrap; gap: var(--space-2); align-items: center; }
`;
