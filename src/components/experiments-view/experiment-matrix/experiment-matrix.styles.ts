import { css } from 'lit';

/** every body row is this tall (the `tbody tr` height below), so the rows out of view can stand in as space */
export const ROW_PX = 26;

/** rl-experiment-matrix's own styles. */
export const experimentMatrixStyles = css`
  :host { display: block; }
  .scroller { overflow: auto; max-height: 640px; }
  table { border-collapse: collapse; font-size: 0.8rem; }
  thead { position: sticky; top: 0; background: var(--panel, #fff); z-index: 1; }
  tbody tr { height: ${ROW_PX}px; }
  th, td { border: 1px solid var(--line); padding: 0 0.35rem; text-align: center; white-space: nowrap; }
  th.bug { text-align: left; font-weight: 500; font-family: ui-monospace, monospace; }
  .cell { min-width: 1.6rem; line-height: 1.3; border: none; background: none; font: inherit; padding: 0.1rem 0.3rem; border-radius: 4px; }
  button.cell { cursor: pointer; text-decoration: underline dotted; }
  [data-status='plausible'] { background: #dcf5e3; color: #146c2e; }
  [data-status='not-plausible'] { background: #fbe4e2; color: #9b1c1c; }
  [data-status='budget'] { background: #fdf0d5; color: #8a5300; }
  [data-status='infrastructure-error'] { background: #ece4fb; color: #5b21b6; }
  [data-status='running'] { background: #e2ecfd; color: #1e429f; }
  [data-status='not-run'], [data-status='queued'] { color: var(--muted); }
  .legend { font-size: 0.75rem; margin: 0.4rem 0; display: flex; flex-wrap: wrap; gap: 0.3rem 0.8rem; }
  .muted { color: var(--muted); }
  .views { display: flex; flex-wrap: wrap; gap: 0.3rem 0.8rem; align-items: center; font-size: 0.85rem; border: none; padding: 0; margin: 0.3rem 0; }
`;
