import { css } from 'lit';

/** rl-last-result's own styles (the element adopts panelStyles, shared-styles.ts, before them). */
export const lastResultStyles = css`
  .result { border: 1px solid var(--line); border-left-width: 6px; border-radius: var(--radius-lg); padding: var(--space-2) var(--space-3); margin: 0 0 var(--space-3);
    background: var(--panel); }
  .result[data-kind='pass'] { border-color: var(--ok); background: var(--ok-soft); }
  .result[data-kind='fail'], .result[data-kind='no-compile'], .result[data-kind='tool-failed'] { border-color: var(--bad); background: var(--bad-soft); }
  .result[data-kind='partial'] { border-color: var(--warn); background: var(--warn-soft); }
  .step { font-size: var(--text-sm); margin: 0; }
  /* read from the back of a classroom: the verdict is the largest text of the column */
  .headline { font-size: var(--text-xl); font-weight: 700; margin: var(--space-1) 0; overflow-wrap: anywhere; }
  /* the result itself scrolls in a bounded box, so the person's turn below it stays in view */
  .text { max-height: 12rem; overflow: auto; }
  .result[data-kind='pass'] .headline { color: var(--ok); }
  .result[data-kind='fail'] .headline, .result[data-kind='no-compile'] .headline, .result[data-kind='tool-failed'] .headline { color: var(--bad); }
`;
