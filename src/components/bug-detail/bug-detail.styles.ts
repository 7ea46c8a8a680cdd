import { css } from 'lit';

/** rl-bug-detail's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const bugDetailStyles = css`
  .report { font-size: var(--text-md); line-height: 1.5; overflow-wrap: anywhere; }
  .report :is(p, ul, ol) { margin: var(--space-2) 0; }
  .report pre { max-height: 20rem; }
  .report img { max-width: 100%; }
  ul { padding-left: var(--space-5); }
  code { overflow-wrap: anywhere; }
  .history-toggle { margin-top: var(--space-3); }
`;
