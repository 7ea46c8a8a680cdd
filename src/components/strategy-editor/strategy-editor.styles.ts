import { css } from 'lit';

/** rl-strategy-editor's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const strategyEditorStyles = css`
  .layout { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: var(--space-4); align-items: start; }
  .layout > * { min-width: 0; }
  @media (max-width: 1100px) { .layout { grid-template-columns: minmax(0, 1fr); } }
  .row { display: flex; flex-wrap: wrap; gap: var(--space-2); align-items: end; margin-bottom: var(--space-3); }
  .row label { margin: 0; }
  .row select, .row input { width: auto; max-width: 100%; }
  [role='tablist'] { display: flex; flex-wrap: wrap; gap: var(--space-1); margin: var(--space-3) 0; }
  [role='tab'][aria-selected='true'] { background: var(--accent); color: var(--on-accent); border-color: var(--accent); }
  /* the tool × state grid scrolls in its own box (display: block) when the states are many */
  table.tools { display: block; overflow: auto; max-width: 100%; max-height: 28rem; }
  table.tools th, table.tools td { border: 1px solid var(--line); border-width: 0 1px 1px 0; text-align: center; }
  table.tools th[scope='row'] { text-align: left; position: sticky; left: 0; background: var(--panel); }
  fieldset { border: 1px solid var(--line); border-radius: var(--radius); margin: 0 0 var(--space-3); min-width: 0; }
  .form input[type='number'] { width: 10rem; }
  .valid { color: var(--ok); }
  *:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
`;
