// The run panel's choice of a saved strategy variant (src/state/variants.ts): picking one sets the run's preset and
// overrides to the variant's, so the run goes through the ordinary request path and records the edit.
import { html } from 'lit';
import { loadVariants, type SavedVariant } from '../../../state/variants.ts';

export function renderSavedVariantPicker(onPick: (variant: SavedVariant | undefined) => void) {
  const saved = loadVariants();
  if (!saved.length) return '';
  return html`<label>Saved variant (Strategy editor)
    <select name="saved-variant" @change=${(e: Event) => onPick(saved.find((v) => v.name === (e.target as HTMLSelectElement).value))}>
      <option value="">— none: the preset with the choices below —</option>
      ${saved.map((v) => html`<option value=${v.name}>${v.name} (${v.preset})</option>`)}
    </select></label>`;
}
