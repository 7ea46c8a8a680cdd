import { css } from 'lit';

/** rl-diff-view's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const diffViewStyles = css`
  pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.8rem; background: var(--code-bg); border-radius: 6px; padding: 0.5rem; overflow: auto; margin: 0.3rem 0; }
  .add { color: #116329; background: #e6f6ea; display: block; }
  .del { color: #82071e; background: #fdecec; display: block; }
  .hunk { color: #6b4fbb; display: block; }
  .plain { display: block; }
`;
