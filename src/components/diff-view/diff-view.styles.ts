import { css } from 'lit';

/** rl-diff-view's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const diffViewStyles = css`
  pre { font-family: var(--font-mono); font-size: var(--text-sm); background: var(--code-bg); border-radius: var(--radius); padding: var(--space-2);
    overflow: auto; margin: var(--space-1) 0; }
  .add { color: var(--ok); background: var(--ok-soft); display: block; }
  .del { color: var(--bad); background: var(--bad-soft); display: block; }
  .hunk { color: var(--accent); display: block; }
  .plain { display: block; }
`;
