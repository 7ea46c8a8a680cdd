import { css } from 'lit';

/** rl-bug-browser's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const bugBrowserStyles = css`
  .filters { display: flex; flex-wrap: wrap; gap: 0.5rem; margin-bottom: 0.6rem; }
  .filters select { width: auto; }
  ul { list-style: none; padding: 0; margin: 0; }
  li { margin: 0.1rem 0; }
  /* each bug is a button: Tab reaches it, Enter or Space opens it */
  li button { display: block; width: 100%; text-align: left; padding: 0.45rem 0.5rem; border: 1px solid transparent; background: none; overflow-wrap: anywhere; }
  li button:hover { background: #f1f3f8; }
  li button[aria-current='true'] { background: #e8eefc; border-color: #c9d6f6; }
  .id { font-weight: 600; font-size: 0.85rem; }
  .title { font-size: 0.85rem; }
`;
