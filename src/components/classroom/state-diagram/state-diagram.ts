import { LitElement, html, svg } from 'lit';
import type { StrategyOutline } from '../../../../worker/contracts/strategy.ts';
import { GAP_LINE_H, LINE_H, NODE_PAD, layoutStateMachine } from '../diagram-layout.ts';
import { stateDiagramStyles } from './state-diagram.styles.ts';

/**
 * @summary A strategy's state machine as an SVG, with `current` lit (`data-lit` on its node, for styles and tests).
 *
 * It scales to its container's width, so it never widens the page.
 *
 * @cssproperty --panel - surface of panels, cards, tables and fields
 * @cssproperty --ink - text colour
 * @cssproperty --muted - colour of secondary text
 * @cssproperty --line-strong - border of form controls and diagram edges
 * @cssproperty --accent - accent colour: primary buttons, the lit state, the current tab, the selection
 * @cssproperty --on-accent - text on the accent colour
 * @cssproperty --font-sans - the text typeface
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --text-sm - type size sm (13 px)
 */
export class RlStateDiagram extends LitElement {
  static override properties = {
    outline: { attribute: false },
    current: {},
  };
  declare outline: Pick<StrategyOutline, 'states' | 'transitions' | 'startState' | 'finalStates'> | undefined;
  declare current: string | undefined;

  static override styles = stateDiagramStyles;

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
