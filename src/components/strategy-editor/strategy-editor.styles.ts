import { css } from 'lit';

/** rl-strategy-editor's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const strategyEditorStyles = css`
  .layout { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 1rem; align-items: start; }
  @media (max-width: 1100px) { .layout { grid-template-columns: minmax(0, 1fr); } }
  .row { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: end; margin-bottom: 0.6rem; }
  .row label { margin: 0; }
  .row select, .row input { width: auto; max-width: 100%; }
  [role='tablist'] { display: flex; flex-wrap: wrap; gap: 0.3rem; margin: 0.6rem 0; }
  [role='tab'][aria-selected='true'] { background: var(--accent); color: #fff; border-color: var(--accent); }
  table.tools { border-collapse: collapse; font-size: 0.8rem; display: block; overflow-x: auto; }
  table.tools th, table.tools td { border: 1px solid var(--line); padding: 0.2rem 0.4rem; text-align: center; }
  table.tools th[scope='row'] { text-align: left; }
  fieldset { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 0.6rem; }
  .form input[type='number'] { width: 10rem; }
  .valid { color: var(--ok); }
  *:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
`;
