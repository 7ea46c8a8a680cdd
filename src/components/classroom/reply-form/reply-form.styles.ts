import { css } from 'lit';

/** rl-reply-form's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const replyFormStyles = css`
  .format { max-height: none; border-left: 4px solid var(--accent); }
  .tools { display: flex; flex-wrap: wrap; gap: var(--space-1) var(--space-3); border: none; padding: 0; margin: var(--space-2) 0; }
  .tools label { display: inline-flex; gap: var(--space-1); align-items: center; margin: 0; }
  .tool-desc { font-size: var(--text-sm); margin: var(--space-1) 0 var(--space-2); }
  textarea { min-height: 2.4rem; font-family: var(--font-mono); font-size: var(--text-sm); }
  textarea.json { min-height: 6rem; }
  input[type='number'] { width: 8rem; }
  .hint { font-weight: normal; }
  .preview { max-height: none; }
  .row { display: flex; gap: var(--space-2); align-items: center; flex-wrap: wrap; }
`;
