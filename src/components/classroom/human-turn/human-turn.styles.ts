import { css } from 'lit';

/** rl-human-turn's own styles (the element adopts panelStyles, shared-styles.ts, before them). */
export const humanTurnStyles = css`
  textarea { min-height: 8rem; font-family: var(--font-mono); font-size: var(--text-sm); }
`;
