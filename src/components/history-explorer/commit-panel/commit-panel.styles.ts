import { css } from 'lit';

/** rl-commit-panel's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const commitPanelStyles = css`
  section { border: 1px solid var(--line); border-radius: 6px; padding: 0.6rem 0.8rem; margin: 0.6rem 0; background: #fbfbfa; }
  h4 { margin: 0 0 0.3rem; font-size: 0.9rem; overflow-wrap: anywhere; }
  h4:focus { outline: none; }
  h4:focus-visible { outline: 3px solid var(--focus, #1a56db); outline-offset: 2px; }
  .meta { font-size: 0.8rem; color: var(--muted); overflow-wrap: anywhere; }
  .head { display: flex; gap: 0.5rem; align-items: flex-start; justify-content: space-between; }
  .message { max-height: 12rem; }
  code { overflow-wrap: anywhere; }
`;
