// Who answered a run: the model it asked, or — for a run replayed from a demo recording — that recording and who wrote
// its replies (`trajectory.config.model.recording`). A hand-authored recording is not a model; the HTML report and the
// per-cell CSV say which, where they name the model, so a reader never takes a scripted demo for a model's work.
import type { Trajectory } from '../contracts/trajectory.ts';
import { recordingOf, recordingSourceWords, type RecordingProvenance } from '../contracts/run-settings.ts';

export interface RunModel {
  /** the model name the run asked (the spec's when the run record is missing) */
  model: string;
  /** set when the run replayed a recording */
  recording?: RecordingProvenance;
}

/** The run's model and recording; a record without them (or with a malformed recording) falls back to `fallback`. */
export function runModel(t: Trajectory | undefined, fallback: string): RunModel {
  const model = t?.config.model;
  const name = typeof model?.model === 'string' && model.model ? model.model : fallback;
  const recording = model && recordingOf(model);
  return recording ? { model: name, recording } : { model: name };
}

/** One line: `recording textkit-1.oneshot.fix (replies written by hand, not by a model)`, or the model's name. */
export function modelLabel(m: RunModel): string {
  return m.recording ? `recording ${m.recording.name} (${recordingSourceWords(m.recording.source, { notAModel: true })})` : m.model;
}
