import { css } from 'lit';

/** rl-reply-form's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const replyFormStyles = css`
  .format { max-height: none; border-left: 4px solid var(--accent); }
  .tools { display: flex; flex-wrap: wrap; gap: 0.3rem 0.8rem; border: none; padding: 0; margin: 0.4rem 0; }
  .tools label { display: inline-flex; gap: 0.3rem; align-items: center; margin: 0; }
  .tool-desc { font-size: 0.85rem; margin: 0.2rem 0 0.4rem; }
  textarea { min-height: 2.4rem; font-family: ui-monospace, monospace; font-size: 0.85rem; }
  textarea.json { min-height: 6rem; }
  input[type='number'] { width: 8rem; }
  .hint { font-weight: normal; }
  .preview { max-height: none; }
  .row { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; }
`;
