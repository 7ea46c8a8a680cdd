import { css } from 'lit';

/** rl-share-bar's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const shareBarStyles = css`
  :host { flex: 1 1 auto; }
  /* with something to say, the bar takes the header's whole width (a line of its own) */
  :host([expanded]) { flex-basis: 100%; }
  .bar { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; justify-content: flex-end; }
  .bar label { margin: 0; }
  .notes { flex-basis: 100%; display: grid; gap: 0.4rem; margin-top: 0.4rem; }
  .notes > div { border-left: 4px solid var(--accent); padding: 0.3rem 0.6rem; background: #fff; }
  .notes > div.close { border: none; padding: 0; justify-self: end; }
  input[name='share-link'] { width: 100%; font-size: 0.75rem; }
  table { border-collapse: collapse; font-size: 0.8rem; }
  td, th { text-align: left; padding: 0.15rem 0.5rem; border-bottom: 1px solid var(--line); }
  input[type='file'] { display: none; }
`;
