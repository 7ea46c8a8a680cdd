import { css } from 'lit';

/** rl-step-card's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const stepCardStyles = css`
  .card { border: 1px solid var(--line); border-radius: var(--radius-lg); padding: var(--space-3); margin: var(--space-2) 0; background: var(--panel); }
  .head { display: flex; gap: var(--space-2) var(--space-3); align-items: baseline; font-size: var(--text-sm); flex-wrap: wrap; }
  details summary { cursor: pointer; font-size: var(--text-sm); color: var(--muted); margin-top: var(--space-1); }
  .label { font-size: var(--text-xs); font-weight: 600; margin-top: var(--space-2); color: var(--muted); text-transform: uppercase; letter-spacing: 0.03em; }
  .neutral { color: var(--muted); }
  .candidate { border-left: 3px solid var(--line); padding-left: var(--space-2); margin: var(--space-1) 0; }
`;
