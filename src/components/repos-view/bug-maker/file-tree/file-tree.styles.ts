import { css } from 'lit';

/** rl-file-tree's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const fileTreeStyles = css`
  .path { display: flex; flex-wrap: wrap; gap: var(--space-1); align-items: baseline; font-size: var(--text-sm); }
  .path button { padding: 0 var(--space-1); }
  ul { list-style: none; padding: 0; margin: var(--space-2) 0; max-height: 18rem; overflow: auto; border: 1px solid var(--line); border-radius: var(--radius); }
  li button { display: block; width: 100%; text-align: left; border: none; border-radius: 0; background: none; padding: var(--space-1) var(--space-2);
    font-family: var(--font-mono); font-size: var(--text-sm); overflow-wrap: anywhere; }
  li button:hover { background: var(--panel-2); }
  li button[aria-current='true'] { background: var(--accent-soft); }
  .file { font-size: var(--text-xs); }
`;
