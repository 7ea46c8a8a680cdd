import { css } from 'lit';

/** rl-app's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const appStyles = css`
  header { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1.5rem; padding: 0.6rem 1.2rem; background: #fff; border-bottom: 1px solid var(--line); }
  nav { display: flex; flex-wrap: wrap; }
  .active-demo { border-left: 4px solid var(--accent); overflow-wrap: anywhere; }
  header h1 { font-size: 1.1rem; margin: 0; }
  nav button { border: none; background: none; padding: 0.3rem 0.6rem; }
  nav button[aria-current='page'] { font-weight: 600; border-bottom: 2px solid var(--accent); border-radius: 0; }
  /* minmax(0, …): a long line of code scrolls inside its box instead of widening the page; one column up to 832 px (the run panel's toolbar needs the width) */
  main { display: grid; grid-template-columns: minmax(14rem, 22rem) minmax(0, 1fr); gap: 1rem; padding: 1rem; align-items: start; }
  main[hidden] { display: none !important; }
  main > * { min-width: 0; }
  @media (max-width: 52rem) { main { grid-template-columns: minmax(0, 1fr); } }
  main.single { grid-template-columns: 1fr; max-width: 48rem; }
  main.single.wide { max-width: 72rem; }
  .stack { display: grid; grid-template-columns: minmax(0, 1fr); gap: 1rem; }
`;
