import { css } from 'lit';

/** rl-state-diagram's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const stateDiagramStyles = css`
  :host { display: block; max-width: 100%; }
  svg { width: 100%; height: auto; display: block; font-family: var(--font-sans); }
  .node rect { fill: var(--panel); stroke: var(--line-strong); stroke-width: 1.5; }
  .node.final rect { stroke-dasharray: 5 3; }
  .node.start rect { stroke-width: 2.5; }
  .node[data-lit='true'] rect { fill: var(--accent); stroke: var(--accent); }
  .node[data-lit='true'] text { fill: var(--on-accent); font-weight: 600; }
  .node text { font-size: 14px; fill: var(--ink); }
  .node text.loop { font-size: 10px; fill: var(--muted); }
  .entry text, .arc text { font-size: 11.5px; fill: var(--muted); }
  .edge { stroke: var(--line-strong); stroke-width: 1.3; fill: none; }
  .current { font-size: var(--text-sm); margin-top: var(--space-1); }
`;
