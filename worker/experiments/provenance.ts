// Who answered a run: the model it asked, or — for a run replayed from a demo recording — that recording and who wrote
// its replies (`trajectory.config.model.recording`). A hand-authored recording is not a model; the HTML report and the
// per-cell CSV say which, where they name the model, so a reader never takes a scripted demo for a model's work.
import type { Trajectory } from '../contracts/trajectory.ts';

export type RecordingSource = 'hand-authored' | 'model' | 'mixed';

export interface RunModel {
  /** the model name the run asked (the spec's when the run record is missing) */
  model: string;
  /** set when the run replayed a recording */
  recording?: { name: string; source: RecordingSource };
}

const SOURCES: readonly RecordingSource[] = ['hand-authored', 'model', 'mixed'];

const SOURCE_WORDS: Record<RecordingSource, string> = {
  'hand-authored': 'replies written by hand, not by a model',
  model: 'replies recorded from a model',
  mixed: 'replies partly written by hand, partly from a model',
};

/** The run's model and recording; a record without them (or with a malformed recording) falls back to `fallback`. */
export function runModel(t: Trajectory | undefined, fallback: string): RunModel {
  const model = t?.config.model as { model?: unknown; recording?: { name?: unknown; source?: unknown } } | undefined;
  const name = typeof model?.model === 'string' && model.model ? model.model : fallback;
  const r = model?.recording;
  if (r && typeof r.name === 'string' && r.name && SOURCES.includes(r.source as RecordingSource)) return { model: name, recording: { name: r.name, source: r.source as RecordingSource } };
  return { model: name };
}

/** One line: `recording textkit-1.oneshot.fix (replies written by hand, not by a model)`, or the model's name. */
export function modelLabel(m: RunModel): string {
  return m.recording ? `recording ${m.recording.name} (${SOURCE_WORDS[m.recording.source]})` : m.model;
}
