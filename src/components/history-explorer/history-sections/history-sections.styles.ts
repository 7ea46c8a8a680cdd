import { css } from 'lit';

/** rl-history-sections's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const historySectionsStyles = css`
  details { border: 1px solid var(--line); border-radius: 6px; margin: 0.4rem 0; padding: 0.3rem 0.6rem; }
  summary { cursor: pointer; font-size: 0.88rem; overflow-wrap: anywhere; }
  .commit { font-size: 0.8rem; color: var(--muted); margin-top: 0.3rem; overflow-wrap: anywhere; }
`;
