import { css } from 'lit';

/** rl-step-card's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const stepCardStyles = css`
  .card { border: 1px solid var(--line); border-radius: 8px; padding: 0.6rem 0.8rem; margin: 0.5rem 0; background: #fff; }
  .head { display: flex; gap: 0.6rem; align-items: baseline; font-size: 0.85rem; flex-wrap: wrap; }
  details summary { cursor: pointer; font-size: 0.85rem; color: var(--muted); margin-top: 0.3rem; }
  .label { font-size: 0.8rem; font-weight: 600; margin-top: 0.4rem; }
  .neutral { color: var(--muted); }
  .candidate { border-left: 3px solid var(--line); padding-left: 0.5rem; margin: 0.3rem 0; }
`;
