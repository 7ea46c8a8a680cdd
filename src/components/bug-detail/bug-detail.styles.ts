import { css } from 'lit';

/** rl-bug-detail's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const bugDetailStyles = css`
  .report { font-size: 0.9rem; line-height: 1.4; overflow-wrap: anywhere; }
  .report :is(p, ul, ol) { margin: 0.4rem 0; }
  .report pre { max-height: 20rem; }
  .report img { max-width: 100%; }
  ul { padding-left: 1.2rem; }
  code { overflow-wrap: anywhere; }
  .history-toggle { margin-top: 0.6rem; }
`;
