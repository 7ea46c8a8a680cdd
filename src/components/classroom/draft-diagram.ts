// The strategy editor's diagram: the state machine of the strategy being edited, drawn as soon as its states and
// transitions are well-formed (the draft may be half typed), the previewed state lit.
import { html, nothing } from 'lit';
import { machineOfDraft } from './diagram-layout.ts';
import './state-diagram/state-diagram.ts';

export function renderDraftDiagram(draft: Record<string, unknown> | undefined, previewState: string | undefined) {
  const machine = machineOfDraft(draft);
  if (!machine || machine.states.length < 2) return nothing;
  return html`<div data-testid="editor-state-diagram" style="max-width: 24rem; margin: 0.4rem 0">
    <rl-state-diagram .outline=${machine} .current=${previewState ?? machine.startState}></rl-state-diagram>
  </div>`;
}
