// What a run is asked to be besides its bug: the preset, its named variants and raw overrides — the run form edits
// them, the run view turns them into a request, and the app, the share bar, the strategy editor and the Experiments
// tab name presets by these types. Pure functions, so nothing here imports an element.
import type { DemoRecording, ModelEndpointChoice } from '../../state/settings.ts';
import { pickDemo, type DemoPick } from '../../state/demo-recordings.ts';

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
  /** a demo recording picked with one click (its name, DemoRecording.file): tried first while it fits */
  recording?: string;
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

/** What the run panel would run now: the preset, the overrides text, and — the model being a demo recording — which one. */
export interface RunPlan {
  preset: string;
  overridesText: string;
  /** set when the model settings point at a demo recording: the recording that serves the run, or why none can */
  demo?: DemoPick;
}

export interface RunPlanInput {
  bugId: string | undefined;
  presets: readonly PresetChoice[];
  /** the form's fields as typed ('' preset or overrides: the default) */
  fields: RunFormFields;
  /** the demo recording the model settings point at (only while the model kind is an endpoint); unset: a real model, never switched */
  settingsDemo: DemoRecording | undefined;
  /** the endpoints the serving machine offers (runtime-config.json): the demo recordings among them */
  served: readonly ModelEndpointChoice[];
}

/**
 * The run the panel would start. With a real model: the preset picked (else the first), the overrides typed. With a
 * demo recording: the recording that fits the bug, preset, variants and overrides in view (a recording replays only
 * the run it was recorded from), the one picked with one click or the one Settings names first; untyped overrides
 * are the fitting recording's own. When none fits, `demo.blocked` says why before anything starts.
 */
export function planRun(input: RunPlanInput): RunPlan {
  const { bugId, presets, fields, settingsDemo, served } = input;
  const demoHere = activeDemo(settingsDemo, bugId);
  if (!settingsDemo || !bugId) return { preset: chosenPreset(fields.preset, demoHere, presets), overridesText: effectiveOverridesText(fields.overridesText, demoHere) };
  // opening a bug shows the preset of the recording picked for it, or of the one Settings names, when it is this bug's
  const picked = served.find((e) => e.demo && e.demo.file === fields.recording && e.demo.bugId === bugId)?.demo;
  const preset = chosenPreset(fields.preset, picked ?? demoHere, presets);
  const overridesTyped = fields.overridesText.trim() !== '';
  const { overrides, error } = parseOverrides(fields.overridesText);
  if (error) return { preset, overridesText: fields.overridesText, demo: { blocked: error, offers: [] } };
  const variants = variantsOf(presets, preset, fields.variants);
  const demo = pickDemo(served, { bugId, preset, variants, overrides: overrides ?? {} }, { overridesTyped, prefer: [fields.recording, settingsDemo.file] });
  return { preset, overridesText: overridesTyped ? fields.overridesText : effectiveOverridesText('', demo.endpoint?.demo), demo };
}

