import { css } from 'lit';

/** rl-runner-status's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const runnerStatusStyles = css`
  :host { display: contents; }
  .pill { border-radius: 999px; padding: 0.15rem 0.7rem; font-size: 0.8rem; border: 1px solid var(--line); white-space: nowrap; }
  .pill.ready { color: var(--ok); border-color: #b8dcc2; background: #eef8f1; }
  .pill.down { color: var(--bad); border-color: #f2c4c0; background: #fbeceb; }
  /* below the tabs, across the header */
  .down-note { flex-basis: 100%; order: 10; margin: 0; font-size: 0.85rem; }
`;
