import { css } from 'lit';

/** rl-experiment-builder's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const experimentBuilderStyles = css`
  fieldset { border: 1px solid var(--line); border-radius: var(--radius); margin: var(--space-2) 0; padding: var(--space-2) var(--space-3); min-width: 0; }
  .row { display: flex; flex-wrap: wrap; gap: var(--space-2) var(--space-3); align-items: end; }
  .row label { margin: var(--space-1) 0; }
  .row input[type='text'], .row select { width: auto; min-width: 8rem; }
  input[type='number'] { width: 6rem; }
  .variant { border-top: 1px dashed var(--line); padding-top: var(--space-1); }
  textarea { font-family: var(--font-mono); font-size: var(--text-sm); }
  .estimate { border-left: 4px solid var(--accent); padding-left: var(--space-3); margin: var(--space-2) 0; }
  .estimate ul { margin: var(--space-1) 0; padding-left: var(--space-5); font-size: var(--text-sm); }
`;
