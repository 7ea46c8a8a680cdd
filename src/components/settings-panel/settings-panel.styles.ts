import { css } from 'lit';

/** rl-settings-panel's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const settingsPanelStyles = css`
  .active-demo { border-left: 4px solid var(--accent); background: var(--accent-soft); padding: var(--space-2) var(--space-3); border-radius: var(--radius-sm);
    overflow-wrap: anywhere; }
  .key-needed { border-left: 4px solid var(--bad); padding: var(--space-1) var(--space-3); overflow-wrap: anywhere; }
`;
