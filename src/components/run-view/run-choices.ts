// What a run is asked to be besides its bug: the preset, its named variants and raw overrides — the run form edits
// them, the run view turns them into a request, and the app, the share bar, the strategy editor and the Experiments
// tab name presets by these types. Pure functions, so nothing here imports an element.
import type { DemoRecording } from '../../state/settings.ts';

export interface PresetChoice {
  id: string;
  title: string;
  variants?: { id: string; description?: string }[];
}

/** What the user chose besides the preset: named variants (ablations, paper-vs-code options) and raw overrides. */
export interface RunChoices {
  variants: string[];
  overrides?: Record<string, unknown>;
}

/** The run form's fields as typed (the overrides as text). */
export interface RunFormFields {
  preset: string;
  variants: string[];
  overridesText: string;
}

/** the demo recording applies only to the bug it was recorded on */
export function activeDemo(demo: DemoRecording | undefined, bugId: string | undefined): DemoRecording | undefined {
  return demo && demo.bugId === bugId ? demo : undefined;
}

/** The preset a run would use: the one picked, else the demo recording's, else the first offered. */
export function chosenPreset(picked: string, demo: DemoRecording | undefined, presets: readonly PresetChoice[]): string {
  return picked || demo?.preset || presets[0]?.id || 'oneshot';
}

/** The overrides text a run would use: the one typed, else the demo recording's overrides. */
export function effectiveOverridesText(typed: string, demo: DemoRecording | undefined): string {
  if (typed) return typed;
  return demo && Object.keys(demo.overrides).length ? JSON.stringify(demo.overrides) : '';
}

/** The overrides field as an object, or a message naming what is wrong with it. */
export function parseOverrides(text: string): { overrides?: Record<string, unknown>; error?: string } {
  const trimmed = text.trim();
  if (!trimmed) return {};
  try {
    const v = JSON.parse(trimmed) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return { overrides: v as Record<string, unknown> };
  } catch (e) {
    return { error: `Overrides: not valid JSON (${(e as Error).message}). Write a JSON object of StrategySpec fields, e.g. {"budgets": {"maxSteps": 10}}.` };
  }
  return { error: 'Overrides: write a JSON object of StrategySpec fields, e.g. {"budgets": {"maxSteps": 10}}.' };
}

/** The ticked variants that `preset` has (a variant ticked under another preset is dropped). */
export function variantsOf(presets: readonly PresetChoice[], preset: string, ticked: readonly string[]): string[] {
  return ticked.filter((v) => presets.find((p) => p.id === preset)?.variants?.some((x) => x.id === v));
}
