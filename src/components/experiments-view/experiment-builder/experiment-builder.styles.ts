import { css } from 'lit';

/** rl-experiment-builder's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const experimentBuilderStyles = css`
  fieldset { border: 1px solid var(--line); border-radius: 6px; margin: 0.5rem 0; padding: 0.4rem 0.7rem; }
  .row { display: flex; flex-wrap: wrap; gap: 0.4rem 0.8rem; align-items: end; }
  .row label { margin: 0.2rem 0; }
  .row input[type='text'], .row select { width: auto; min-width: 8rem; }
  input[type='number'] { width: 6rem; }
  .variant { border-top: 1px dashed var(--line); padding-top: 0.3rem; }
  textarea { font-family: ui-monospace, monospace; font-size: 0.8rem; }
  .estimate { border-left: 4px solid var(--accent); padding-left: 0.6rem; margin: 0.5rem 0; }
  .estimate ul { margin: 0.2rem 0; padding-left: 1.2rem; font-size: 0.8rem; }
`;
