import { css } from 'lit';

/** rl-state-diagram's own styles (the element adopts panelStyles, shared-styles.ts, before them where it uses them). */
export const stateDiagramStyles = css`
  :host { display: block; max-width: 100%; }
  svg { width: 100%; height: auto; display: block; font-family: system-ui, sans-serif; }
  .node rect { fill: #fff; stroke: #8a94a6; stroke-width: 1.5; }
  .node.final rect { stroke-dasharray: 5 3; }
  .node.start rect { stroke-width: 2.5; }
  .node[data-lit='true'] rect { fill: var(--accent, #2456c6); stroke: var(--accent, #2456c6); }
  .node[data-lit='true'] text { fill: #fff; font-weight: 600; }
  .node text { font-size: 14px; fill: #1d2433; }
  .node text.loop { font-size: 10px; fill: #555e70; }
  .entry text, .arc text { font-size: 11.5px; fill: #454e60; }
  .edge { stroke: #6b7587; stroke-width: 1.3; fill: none; }
  .current { font-size: 0.85rem; margin-top: 0.2rem; }
`;
