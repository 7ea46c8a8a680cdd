import { css } from 'lit';

/** rl-bug-browser's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const bugBrowserStyles = css`
  .filters { display: flex; flex-wrap: wrap; gap: var(--space-2); margin-bottom: var(--space-3); }
  .filters select { width: auto; }
  ul { list-style: none; padding: 0; margin: 0; }
  li { margin: 1px 0; }
  /* each bug is a button: Tab reaches it, Enter or Space opens it */
  li button { display: block; width: 100%; text-align: left; padding: var(--space-2); border: 1px solid transparent; background: none; border-radius: var(--radius);
    overflow-wrap: break-word; }
  li button:hover:not(:disabled) { background: var(--panel-2); }
  li button[aria-current='true'] { background: var(--accent-soft); border-color: color-mix(in srgb, var(--accent) 30%, transparent); }
  .id { font-weight: 600; font-size: var(--text-sm); font-family: var(--font-mono); }
  .title { font-size: var(--text-sm); }
`;
