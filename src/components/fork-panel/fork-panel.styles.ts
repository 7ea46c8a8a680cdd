import { css } from 'lit';

/** rl-fork-panel's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const forkPanelStyles = css`
  .panel { margin: 0.6rem 0; }
  fieldset { border: 1px solid var(--line); border-radius: 6px; margin: 0.4rem 0; padding: 0.3rem 0.6rem; min-width: 0; }
  fieldset label { display: flex; gap: 0.4rem; align-items: center; }
  textarea { min-height: 4rem; font-family: ui-monospace, monospace; font-size: 0.8rem; }
  .actions { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
`;
