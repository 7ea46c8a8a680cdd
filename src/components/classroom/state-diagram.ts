import { LitElement, css, html, svg } from 'lit';
import type { StrategyOutline } from '../../../worker/engine-api.ts';
import { GAP_LINE_H, LINE_H, NODE_PAD, layoutStateMachine } from './diagram-layout.ts';

/**
 * A strategy's state machine as an SVG, with `current` lit (`data-lit` on its node, for styles and tests). It scales
 * to its container's width, so it never widens the page.
 */
export class RlStateDiagram extends LitElement {
  static override properties = {
    outline: { attribute: false },
    current: {},
  };
  declare outline: Pick<StrategyOutline, 'states' | 'transitions' | 'startState' | 'finalStates'> | undefined;
  declare current: string | undefined;

  static override styles = css`
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

  override render() {
    if (!this.outline) return html``;
    const layout = layoutStateMachine(this.outline);
    const label = `State machine with ${layout.nodes.length} states${this.current ? `; current state: ${this.current}` : ''}`;
    return html`<svg viewBox="0 0 ${layout.width} ${layout.height}" role="img" aria-label=${label} data-testid="state-diagram">
        <defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#6b7587"></path></marker></defs>
        ${layout.entries.map(
          (e) => svg`<g class="entry" data-to=${e.to}>
            <line class="edge" x1=${e.arrow.x} y1=${e.arrow.y1} x2=${e.arrow.x} y2=${e.arrow.y2} marker-end="url(#arrow)"></line>
            ${e.lines.map((l, i) => svg`<text x=${e.x} y=${e.y + i * GAP_LINE_H}>${l}</text>`)}
          </g>`,
        )}
        ${layout.arcs.map(
          (a) => svg`<g class="arc" data-from=${a.from} data-to=${a.to}>
            <path class="edge" d=${a.path} marker-end="url(#arrow)"></path>
            ${a.label.lines.map((l, i) => svg`<text x=${a.label.x} y=${a.label.y + i * 12}>${l}</text>`)}
          </g>`,
        )}
        ${layout.nodes.map((n) => {
          const lit = n.name === this.current;
          return svg`<g class="node ${n.start ? 'start' : ''} ${n.final ? 'final' : ''}" data-state=${n.name} data-lit=${lit ? 'true' : 'false'}>
            <rect x=${n.x} y=${n.y} width=${n.w} height=${n.h} rx="10"></rect>
            ${n.lines.map((l, i) => svg`<text x=${n.x + n.w / 2} y=${n.y + NODE_PAD + (i + 1) * LINE_H - 4} text-anchor="middle">${l}</text>`)}
            ${n.selfLoops.length ? svg`<text class="loop" x=${n.x + n.w / 2} y=${n.y + NODE_PAD + (n.lines.length + 1) * LINE_H - 4} text-anchor="middle">↻ ${n.selfLoops.join(', ')}</text>` : ''}
          </g>`;
        })}
      </svg>
      ${this.current ? html`<div class="current" data-testid="current-state" aria-live="polite">Current state: <b>${this.current}</b></div>` : ''}`;
  }
}
customElements.define('rl-state-diagram', RlStateDiagram);
