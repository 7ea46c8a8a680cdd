import { css } from 'lit';

/** rl-app's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const appStyles = css`
  /* the header wraps (title and tabs, then the share bar) rather than clip: every item may shrink, none pushes the page */
  header { display: flex; flex-wrap: wrap; align-items: center; gap: var(--space-2) var(--space-5); padding: var(--space-2) var(--space-4);
    background: var(--panel); border-bottom: 1px solid var(--line); }
  header > * { min-width: 0; }
  header h1 { font-size: var(--text-lg); font-weight: 700; letter-spacing: -0.01em; margin: 0; white-space: nowrap; }
  nav { display: flex; flex-wrap: wrap; gap: 0 var(--space-1); }
  nav button { border: none; background: none; padding: var(--space-2) var(--space-2); border-radius: 0; color: var(--muted);
    border-bottom: 2px solid transparent; }
  nav button:hover:not(:disabled) { background: none; color: var(--ink); }
  nav button[aria-current='page'] { color: var(--ink); font-weight: 600; border-bottom-color: var(--accent); }

  /* the one notice area: each notice one line (wrapping between words), its kind in its edge, dismissed by its own × */
  .notices { display: grid; gap: var(--space-2); padding: 0 var(--space-4); }
  .notices > .notice:first-child { margin-top: var(--space-3); }
  .notice { display: flex; align-items: flex-start; gap: var(--space-3); padding: var(--space-2) var(--space-3); border: 1px solid var(--line);
    border-left: 4px solid var(--accent); border-radius: var(--radius); background: var(--panel); font-size: var(--text-sm); }
  .notice .text { flex: 1 1 auto; min-width: 0; overflow-wrap: anywhere; }
  .notice[data-kind='success'] { border-left-color: var(--ok); background: var(--ok-soft); }
  .notice[data-kind='warning'] { border-left-color: var(--warn); background: var(--warn-soft); }
  .notice[data-kind='error'] { border-left-color: var(--bad); background: var(--bad-soft); color: var(--bad); }
  .notice .dismiss { border: none; background: none; padding: 0 var(--space-1); font-size: var(--text-lg); line-height: 1; color: inherit; }

  /* minmax(0, …): a long line of code scrolls inside its box instead of widening the page; one column up to 832 px (the run panel's toolbar needs the width) */
  main { display: grid; grid-template-columns: minmax(14rem, 22rem) minmax(0, 1fr); gap: var(--space-4); padding: var(--space-4); align-items: start; }
  main[hidden] { display: none !important; }
  main > * { min-width: 0; }
  @media (max-width: 52rem) { main { grid-template-columns: minmax(0, 1fr); } }
  main.single { grid-template-columns: minmax(0, 1fr); max-width: 48rem; }
  /* the data views (Runs, Experiments, the Strategy editor) take the window's width: their tables are wide */
  main.single.wide { max-width: 110rem; }
  .stack { display: grid; grid-template-columns: minmax(0, 1fr); gap: var(--space-4); }
`;
