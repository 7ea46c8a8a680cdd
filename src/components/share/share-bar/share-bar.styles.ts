import { css } from 'lit';

/** rl-share-bar's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const shareBarStyles = css`
  :host { flex: 1 1 auto; min-width: 0; }
  /* with something to say, the bar takes the header's whole width (a line of its own) */
  :host([expanded]) { flex-basis: 100%; }
  .bar { display: flex; flex-wrap: wrap; gap: var(--space-2); align-items: center; justify-content: flex-end; }
  .bar label { margin: 0; }
  /* what a link or bundle brought: one box, its parts one under another, closed together (Close) */
  .notes { flex-basis: 100%; display: grid; gap: var(--space-2); margin-top: var(--space-2); padding: var(--space-2) var(--space-3);
    border: 1px solid var(--line); border-left: 4px solid var(--accent); border-radius: var(--radius); background: var(--panel); font-size: var(--text-sm);
    min-width: 0; }
  .notes > div { min-width: 0; overflow-wrap: anywhere; }
  .notes > div.close { justify-self: end; }
  input[name='share-link'] { width: 100%; font-size: var(--text-xs); }
  /* an opened bundle's runs: a table that scrolls in its own box (display: block) rather than widen the header */
  table { display: block; overflow: auto; max-width: 100%; max-height: 16rem; }
  input[type='file'] { display: none; }
`;
