import { css } from 'lit';

/** rl-repos-view's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const reposViewStyles = css`
  .drop { border: 2px dashed var(--line); border-radius: 8px; padding: 1rem; text-align: center; margin: 0.6rem 0; }
  .drop.over { border-color: var(--accent); background: #eef3fd; }
  li { margin: 0.3rem 0; }
`;
