import { LitElement, html } from 'lit';
import type { TrajStep } from '../../../../worker/contracts/trajectory.ts';
import { panelStyles } from '../../shared-styles.ts';
import '../../trajectory-viewer/long-text/long-text.ts';
import { resultSummary } from './result-summary.ts';
import { lastResultStyles } from './last-result.styles.ts';

/**
 * @summary The step just taken, for a class: the command that ran, whether its validation passed (in large type) and
 * the result the model is shown next.
 *
 * The presenter layout and the fork panel put it above a person's next turn, so the room sees what the last command
 * did before anyone answers.
 *
 * @cssproperty --panel - surface of panels, cards, tables and fields
 * @cssproperty --line - border and rule colour
 * @cssproperty --ok - colour of passes
 * @cssproperty --ok-soft - background of a pass
 * @cssproperty --bad - colour of failures and errors
 * @cssproperty --bad-soft - background of a failure or an error
 * @cssproperty --warn - colour of warnings and budget ends
 * @cssproperty --warn-soft - background of a warning
 * @cssproperty --radius-lg - corner radius of panels and cards
 * @cssproperty --space-1 - spacing step 1 (4 px)
 * @cssproperty --space-2 - spacing step 2 (8 px)
 * @cssproperty --space-3 - spacing step 3 (12 px)
 * @cssproperty --text-sm - type size sm (13 px)
 * @cssproperty --text-xl - type size xl (20 px)
 */
export class RlLastResult extends LitElement {
  static override properties = { step: { attribute: false } };
  declare step: TrajStep | undefined;

  static override styles = [panelStyles, lastResultStyles];

  override render() {
    if (!this.step) return html``;
    const r = resultSummary(this.step);
    return html`<section class="result" data-testid="last-result" data-kind=${r.kind} aria-label="The last result">
      <p class="step muted">Last result — step ${r.stepNumber}${r.tool ? html`: <b>${r.tool}</b>` : ''}</p>
      <p class="headline" data-testid="last-result-headline" role="status">${r.headline}</p>
      ${r.text
        ? html`<div class="text" tabindex="0" aria-label="The result the model is shown next"><rl-long-text data-testid="last-tool-result" .text=${r.text}></rl-long-text></div>`
        : ''}
    </section>`;
  }
}
customElements.define('rl-last-result', RlLastResult);
