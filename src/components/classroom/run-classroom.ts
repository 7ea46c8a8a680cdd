// The classroom's state diagram as the run view places it above a run's steps, lit at the current state. The other
// classroom parts of a run are elements the run view composes: rl-human-turn (a person's turn: prompt, reply form,
// typed reply) and rl-run-presenter (the presenter layout). Nothing here imports the run view.
import { html, nothing } from 'lit';
import type { StrategyOutline } from '../../../worker/contracts/strategy.ts';
import type { TrajStep } from '../../../worker/contracts/trajectory.ts';
import { currentState } from './diagram-layout.ts';
import './state-diagram/state-diagram.ts';

/** The diagram, for strategies with a state machine (more than one state); `turnState`: the state of a pending turn. */
export function renderClassroomDiagram(outline: StrategyOutline | undefined, steps: readonly TrajStep[], turnState: string | undefined) {
  if (!outline || outline.states.length < 2) return nothing;
  return html`<div class="classroom-diagram" data-testid="classroom-diagram" style="max-width: 26rem; margin: 0.4rem 0">
    <rl-state-diagram .outline=${outline} .current=${currentState(outline, steps, turnState)}></rl-state-diagram>
  </div>`;
}
