import { css } from 'lit';

/** rl-settings-panel's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const settingsPanelStyles = css`
  .active-demo { border-left: 4px solid var(--accent); background: #eef3fd; padding: 0.4rem 0.6rem; border-radius: 4px; overflow-wrap: anywhere; }
  .key-needed { border-left: 4px solid var(--bad); padding: 0.3rem 0.6rem; overflow-wrap: anywhere; }
`;
