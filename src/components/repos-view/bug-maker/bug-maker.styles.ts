import { css } from 'lit';

/** rl-bug-maker's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const bugMakerStyles = css`
  /* its own width decides the columns: the Repositories tab is a narrow column on wide screens */
  :host { display: block; margin-top: var(--space-4); container-type: inline-size; }
  .columns { display: grid; grid-template-columns: minmax(0, 1fr); gap: var(--space-4); }
  @container (min-width: 60rem) { .columns { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); } }
  section { margin-top: var(--space-3); }
  .picked { font-size: var(--text-sm); margin: var(--space-1) 0; overflow-wrap: anywhere; }
  .tests { list-style: none; padding: 0; margin: var(--space-2) 0; max-height: 16rem; overflow: auto; border: 1px solid var(--line); border-radius: var(--radius); }
  .tests li { padding: 2px var(--space-2); font-family: var(--font-mono); font-size: var(--text-xs); overflow-wrap: anywhere; }
  .tests label { display: inline; margin: 0; font-size: inherit; }
  .fails { color: var(--bad); font-family: var(--font-sans); }
  .row { display: flex; flex-wrap: wrap; gap: var(--space-2); align-items: center; }
  .row input { flex: 1 1 14rem; width: auto; }
  .notes { font-size: var(--text-xs); color: var(--muted); margin: var(--space-1) 0; padding-left: var(--space-4); }
  .saved { border: 1px solid var(--ok); background: var(--ok-soft); border-radius: var(--radius); padding: var(--space-2) var(--space-3); }
`;
