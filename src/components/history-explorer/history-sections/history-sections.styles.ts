import { css } from 'lit';

/** rl-history-sections's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const historySectionsStyles = css`
  details { border: 1px solid var(--line); border-radius: var(--radius); margin: var(--space-2) 0; padding: var(--space-1) var(--space-3); }
  summary { cursor: pointer; font-size: var(--text-md); overflow-wrap: anywhere; }
  .commit { font-size: var(--text-xs); color: var(--muted); margin-top: var(--space-1); overflow-wrap: anywhere; }
`;
