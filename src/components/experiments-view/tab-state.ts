// What the Experiments tab keeps while the user is on another tab. The app shell makes a new rl-experiments-view each
// time the tab opens (a visit to Settings to change the model, say), so state kept in the elements would be lost: the
// builder's form, whether it was open, the experiment shown. It lives here, for as long as the page does (a reload
// starts afresh; nothing is written to storage — a pasted spec is the user's text, kept in memory only).
import type { ExperimentEstimate } from '../../../worker/experiments/experiment-estimate.ts';
import { defaultForm, type ExperimentForm } from './spec-form.ts';

export interface BuilderDraft {
  form: ExperimentForm;
  /** build with the form, or paste a spec */
  mode: 'form' | 'json';
  specText: string;
  estimate?: ExperimentEstimate;
  /** the spec (as JSON) the estimate is for */
  estimatedFor?: string;
}

export interface ExperimentsTabState {
  /** the builder is open */
  building: boolean;
  /** the experiment shown below the list */
  openId?: string;
  draft: BuilderDraft;
}

export const freshDraft = (preset?: string): BuilderDraft => ({ form: defaultForm(preset), mode: 'form', specText: '' });

/** The tab's state for this page: one object, read when an element is made and written as it changes. */
export const experimentsTab: ExperimentsTabState = { building: false, draft: freshDraft() };
