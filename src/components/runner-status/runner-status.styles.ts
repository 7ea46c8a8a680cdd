import { css } from 'lit';

/** rl-runner-status's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const runnerStatusStyles = css`
  :host { display: contents; }
  .pill { border-radius: 999px; padding: 0 var(--space-3); line-height: 1.7; font-size: var(--text-xs); border: 1px solid var(--line); white-space: nowrap; }
  .pill.ready { color: var(--ok); border-color: color-mix(in srgb, var(--ok) 35%, transparent); background: var(--ok-soft); }
  .pill.down { color: var(--bad); border-color: color-mix(in srgb, var(--bad) 35%, transparent); background: var(--bad-soft); }
  /* below the tabs, across the header */
  .down-note { flex-basis: 100%; order: 10; margin: 0; font-size: var(--text-sm); }
`;
