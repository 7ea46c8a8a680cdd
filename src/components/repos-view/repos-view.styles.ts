import { css } from 'lit';

/** rl-repos-view's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const reposViewStyles = css`
  .drop { border: 2px dashed var(--line-strong); border-radius: var(--radius-lg); padding: var(--space-4); text-align: center; margin: var(--space-3) 0; }
  .drop.over { border-color: var(--accent); background: var(--accent-soft); }
  li { margin: var(--space-1) 0; overflow-wrap: anywhere; }
`;
