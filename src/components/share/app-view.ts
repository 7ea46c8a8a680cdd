// Reads the view the app shows and opens the view a link names, through the views' own state and methods (the
// same ones a click uses), so the views need no share code of their own. The shapes below are what this module
// relies on in rl-app, the Runs view, the trajectory viewer, the run panel and the Experiments tab.
import type { Trajectory } from '../../../worker/contracts/trajectory.ts';
import type { BugSummary } from '../../../worker/contracts/bug-view.ts';
import type { ExperimentSnapshot } from '../../../worker/experiments/experiments-api.ts';
import type { LinkState } from '../../../worker/share/link-state.ts';
import { getEngine } from '../../engine-client.ts';
import type { Settings } from '../../state/settings.ts';
import { linkModelOf, type ViewConfig, type ViewSnapshot } from '../../state/url-state.ts';
import type { PresetChoice } from '../run-view/run-choices.ts';

type Lit = HTMLElement & { updateComplete: Promise<boolean>; renderRoot: ShadowRoot | HTMLElement };

export type AppHandle = Lit & {
  tab: string;
  bugs: BugSummary[];
  selected: string | undefined;
  settings: Settings | undefined;
  presets: PresetChoice[];
  bugsLoaded: boolean;
  selectBug(id: string): Promise<void>;
};
type RunPanel = Lit & { preset: string; variants: string[]; overridesText: string; chosenPreset: string; effectiveOverridesText: string };
type RunsView = Lit & { open?: Trajectory; imported?: unknown; comparing?: Trajectory[]; selected: string[]; show(id: string): Promise<void>; compare(): Promise<void> };
type Viewer = Lit & { current: number; trajectory: Trajectory; focusStep(): void };
/** `refreshList`: private to the view, called here because a bundle opened for a link adds an experiment it has not listed */
type ExperimentsView = Lit & { open?: ExperimentSnapshot; building: boolean; openExperiment(id: string): Promise<void>; refreshList?(): Promise<void> };
type Builder = Lit & { mode: 'form' | 'json'; specText: string };

const find = <T>(root: Lit | undefined, selector: string) => (root?.renderRoot.querySelector(selector) ?? undefined) as T | undefined;

async function showTab(app: AppHandle, tab: string) {
  app.tab = tab;
  await app.updateComplete;
}

function parseOverrides(text: string): Record<string, unknown> {
  try {
    const value: unknown = text.trim() ? JSON.parse(text) : {};
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The run panel's strategy and Settings' model (an OpenAI-compatible endpoint only; never the key). */
function bugConfig(app: AppHandle, panel: RunPanel | undefined): ViewConfig | undefined {
  if (!panel) return undefined;
  const preset = panel.chosenPreset;
  const known = app.presets.find((p) => p.id === preset)?.variants?.map((v) => v.id) ?? [];
  const model = app.settings?.modelKind === 'endpoint' ? linkModelOf(app.settings.model) : undefined;
  return { preset, variants: panel.variants.filter((v) => known.includes(v)), overrides: parseOverrides(panel.effectiveOverridesText), ...(model ? { model } : {}) };
}

function runConfig(t: Trajectory): ViewConfig {
  const model = linkModelOf(t.config.model as Record<string, unknown>);
  return { preset: t.config.preset, variants: t.config.variants, overrides: t.config.overrides, ...(model ? { model } : {}) };
}

/** What the app shows now, or undefined where a link has nothing to say (Settings, Repositories, the Strategy editor, a file opened for viewing). */
export function readView(app: AppHandle): ViewSnapshot | undefined {
  if (app.tab === 'bugs') {
    if (!app.selected) return undefined;
    const config = bugConfig(app, find<RunPanel>(app, 'rl-run-view'));
    return { kind: 'bug', bug: app.selected, ...(config ? { config } : {}) };
  }
  if (app.tab === 'runs') {
    const runs = find<RunsView>(app, 'rl-runs-view');
    if (runs?.comparing) return { kind: 'compare', runs: runs.comparing.map((t) => t.runId) };
    if (!runs?.open || runs.imported) return undefined;
    const step = find<Viewer>(runs, 'rl-trajectory-viewer')?.current ?? 0;
    return { kind: 'run', run: runs.open.runId, bug: runs.open.bug.id, step, config: runConfig(runs.open) };
  }
  if (app.tab === 'experiments') {
    const open = find<ExperimentsView>(app, 'rl-experiments-view')?.open;
    return open ? { kind: 'experiment', experiment: open.record.id, spec: open.record.spec } : { kind: 'experiment' };
  }
  return undefined;
}

/** What opening a link found: what it could not open here (named), and whether a bundle would bring it. */
export interface OpenResult {
  missing?: string;
  /** the missing thing is an experiment or a run: a bundle of its experiment brings it */
  bundleWanted?: boolean;
}

async function waitFor(check: () => boolean, what: string) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!check()) throw new Error(`the page did not show ${what}`);
}

async function openBug(app: AppHandle, bug: string, config: LinkState['config']): Promise<OpenResult> {
  await showTab(app, 'bugs');
  await waitFor(() => app.bugsLoaded, 'the bug list');
  if (!app.bugs.some((b) => b.id === bug)) return { missing: `Bug ${bug} is not in this browser's catalogue: it comes from an imported repository — import that repository under Repositories, then open the link again.` };
  await app.selectBug(bug);
  await app.updateComplete;
  const panel = find<RunPanel>(app, 'rl-run-view');
  if (panel && config) {
    panel.preset = config.preset;
    panel.variants = [...config.variants];
    panel.overridesText = Object.keys(config.overrides).length ? JSON.stringify(config.overrides, null, 2) : '';
    await panel.updateComplete;
  }
  return {};
}

async function openRun(app: AppHandle, run: string, step: number | undefined): Promise<OpenResult> {
  await showTab(app, 'runs');
  const runs = find<RunsView>(app, 'rl-runs-view')!;
  if (!(await getEngine().getRun(run))) return { missing: `Run ${run} is not in this browser.`, bundleWanted: true };
  await runs.show(run);
  const viewer = find<Viewer>(runs, 'rl-trajectory-viewer');
  if (viewer && step !== undefined) {
    viewer.current = Math.min(step, Math.max(0, viewer.trajectory.steps.length - 1));
    await viewer.updateComplete;
    viewer.focusStep();
  }
  return {};
}

async function openCompare(app: AppHandle, ids: string[]): Promise<OpenResult> {
  await showTab(app, 'runs');
  const runs = find<RunsView>(app, 'rl-runs-view')!;
  const here = await Promise.all(ids.map((id) => getEngine().getRun(id)));
  const missing = ids.filter((_, i) => !here[i]);
  if (missing.length) return { missing: `Run${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of this comparison ${missing.length > 1 ? 'are' : 'is'} not in this browser.`, bundleWanted: true };
  runs.selected = [...ids];
  await runs.compare();
  return {};
}

async function openExperiment(app: AppHandle, id: string | undefined, spec: unknown): Promise<OpenResult> {
  await showTab(app, 'experiments');
  const view = find<ExperimentsView>(app, 'rl-experiments-view')!;
  if (id && (await getEngine().hasExperiment(id))) {
    // here now (a bundle just opened for this link): listed, and shown instead of the spec the builder was given
    view.building = false;
    await view.refreshList?.();
    await view.openExperiment(id);
    return {};
  }
  if (spec) {
    // the configuration travels: the builder holds the spec, ready to estimate and start here
    view.building = true;
    await view.updateComplete;
    const builder = find<Builder>(view, 'rl-experiment-builder');
    if (builder) {
      builder.mode = 'json';
      builder.specText = JSON.stringify(spec, null, 2);
    }
  }
  return id ? { missing: `Experiment ${id} is not in this browser${spec ? ': its spec is in the builder below' : ''}.`, bundleWanted: true } : {};
}

/** Opens the view a link holds, as the user's clicks would. */
export async function openView(app: AppHandle, state: LinkState): Promise<OpenResult> {
  const v = state.view;
  switch (v.kind) {
    case 'bug':
      return openBug(app, v.bug, state.config);
    case 'run':
      return openRun(app, v.run, v.step);
    case 'compare':
      return openCompare(app, v.runs);
    case 'experiment':
      return openExperiment(app, v.experiment, state.experiment);
  }
}
