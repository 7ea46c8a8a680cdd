import { css } from 'lit';

/** every body row is this tall (the `tbody tr` height below), so the rows out of view can stand in as space */
export const ROW_PX = 26;

/** rl-experiment-matrix's own styles. */
export const experimentMatrixStyles = css`
  :host { display: block; font-size: var(--text-md); }
  /* the matrix scrolls in its own box both ways (a 40-sample experiment is wide); its header rows stick to its top */
  .scroller { overflow: auto; width: fit-content; max-width: 100%; max-height: 640px; border: 1px solid var(--line); border-radius: var(--radius); background: var(--panel); }
  table { border-collapse: collapse; font-size: var(--text-sm); }
  thead { position: sticky; top: 0; background: var(--panel-2); z-index: 1; }
  th { color: var(--muted); font-weight: 600; font-size: var(--text-xs); }
  tbody tr { height: ${ROW_PX}px; }
  th, td { border: 1px solid var(--line); padding: 0 var(--space-1); text-align: center; white-space: nowrap; }
  th.bug { text-align: left; font-weight: 500; font-size: var(--text-sm); color: var(--ink); font-family: var(--font-mono); background: var(--panel);
    /* the bug names stay in view while a wide matrix scrolls sideways */
    position: sticky; left: 0; }
  .cell { min-width: 1.6rem; line-height: 1.3; border: none; background: none; font: inherit; padding: 2px var(--space-1); border-radius: var(--radius-sm); }
  button.cell { cursor: pointer; text-decoration: underline dotted; }
  button.cell:focus-visible { outline: 3px solid var(--focus); outline-offset: 1px; }
  /* a status's colour, and its symbol (the template's) for whoever does not tell the colours apart */
  [data-status='plausible'] { background: var(--ok-soft); color: var(--ok); }
  [data-status='not-plausible'] { background: var(--bad-soft); color: var(--bad); }
  [data-status='budget'] { background: var(--warn-soft); color: var(--warn); }
  /* the infrastructure failed, not the agent: no failure's colour */
  [data-status='infrastructure-error'] { background: var(--panel-2); color: var(--ink); }
  [data-status='running'] { background: var(--accent-soft); color: var(--accent); }
  [data-status='not-run'], [data-status='queued'] { color: var(--muted); }
  .legend { font-size: var(--text-xs); margin: var(--space-2) 0; display: flex; flex-wrap: wrap; gap: var(--space-1) var(--space-3); }
  .muted { color: var(--muted); }
  .views { display: flex; flex-wrap: wrap; gap: var(--space-1) var(--space-3); align-items: center; font-size: var(--text-sm); border: none; padding: 0; margin: var(--space-1) 0; }
  .views label { display: inline-flex; gap: var(--space-1); align-items: center; }
  input[type='radio'] { accent-color: var(--accent); }
`;
