// The Runs list's run and experiment columns and the app's notice area, without a browser: which experiment cell
// names a run (the cell records, joined to the run list: worker/experiments/run-cells.ts), how a run id and a cell
// read in their columns, sorting and filtering by them; notices replaced in place, dismissed, and gone by themselves.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryRecordStore } from '../../../worker/platform/memory-records.ts';
import { ExperimentStore } from '../../../worker/experiments/experiment-store.ts';
import { runCells, withRunCells } from '../../../worker/experiments/run-cells.ts';
import { EXPERIMENT_SCHEMA_VERSION, type CellRecord, type ExperimentRecord } from '../../../worker/contracts/experiment.ts';
import type { RunSummary } from '../../../worker/contracts/runs.ts';
import { cellText, experimentLabel, filterRuns, shortRunId, sortRuns } from '../../../src/components/runs-view/run-rows.ts';
import { expiryOf, INFO_MS, NoticeController, postNotice, type Notice } from '../../../src/components/app/notices.ts';

const NOW = '2026-05-01T10:00:00.000Z';

function experiment(id: string, name?: string): ExperimentRecord {
  return {
    schemaVersion: EXPERIMENT_SCHEMA_VERSION,
    kind: 'repairlab-experiment',
    id,
    createdAt: NOW,
    updatedAt: NOW,
    status: 'finished',
    spec: name ? { name } : {},
    bugs: [{ id: 'textkit-1', category: 'SL' }],
    runnerOfBug: { 'textkit-1': 0 },
    cells: 4,
    wallMsBefore: 0,
  };
}

function cell(experimentId: string, index: number, variant: string, sample: number, runId?: string, attempts: string[] = []): CellRecord {
  return {
    experimentId,
    index,
    bugId: 'textkit-1',
    variant,
    sample,
    runner: 0,
    status: 'plausible',
    ...(runId ? { runId } : {}),
    startedAt: NOW,
    attempts: attempts.map((a) => ({ runId: a, reason: 'HTTP 429', at: NOW, costUsd: null, calls: 1 })),
    reason: '',
    costUsd: 0,
    calls: 1,
    steps: 1,
  };
}

const summary = (runId: string, extra: Partial<RunSummary> = {}): RunSummary => ({
  runId,
  bugId: 'textkit-1',
  preset: 'oneshot',
  variants: [],
  overrides: {},
  model: 'm',
  costUsd: null,
  createdAt: NOW,
  steps: 1,
  status: 'plausible',
  reason: '',
  interrupted: false,
  ...extra,
});

describe('runs and the experiment cells that name them', () => {
  it('finds each run of a cell — the counted one and set-aside attempts — with its experiment, variant and sample', async () => {
    const store = new ExperimentStore(new MemoryRecordStore());
    await store.put(experiment('exp-a', 'ablation'));
    await store.put(experiment('exp-b'));
    await store.putCell(cell('exp-a', 0, 'full', 0, 'run-1'));
    await store.putCell(cell('exp-a', 1, 'full', 1, 'run-2', ['run-0']));
    await store.putCell(cell('exp-b', 0, 'short', 0, 'run-3'));
    // a cell started but whose run has no id yet names no run
    await store.putCell(cell('exp-b', 1, 'short', 1));

    const cells = await runCells(store);
    expect(Object.fromEntries(cells)).toEqual({
      'run-1': { experimentId: 'exp-a', experimentName: 'ablation', variant: 'full', sample: 0 },
      'run-2': { experimentId: 'exp-a', experimentName: 'ablation', variant: 'full', sample: 1 },
      'run-0': { experimentId: 'exp-a', experimentName: 'ablation', variant: 'full', sample: 1, attempt: true },
      'run-3': { experimentId: 'exp-b', variant: 'short', sample: 0 },
    });

    const listed = await withRunCells([summary('run-1'), summary('run-9')], store);
    expect(listed[0]!.experiment).toEqual({ experimentId: 'exp-a', experimentName: 'ablation', variant: 'full', sample: 0 });
    // a run of no experiment is listed as it was
    expect(listed[1]).toEqual(summary('run-9'));
  });
});

describe('the run and experiment columns', () => {
  it('shortens a loop-made run id to its random part, any other id to 12 characters', () => {
    expect(shortRunId('run-mabc1234-k3j2h1g0f9e8')).toBe('k3j2h1g');
    expect(shortRunId('swe-agent-trajectory-django-1234')).toBe('swe-agent-t…');
    expect(shortRunId('run-short')).toBe('run-short');
  });

  it('names the cell (experiment name or id, variant, sample from 1) and searches and sorts by it', () => {
    const a = summary('run-a', { experiment: { experimentId: 'exp-1', experimentName: 'ablation', variant: 'full', sample: 9 } });
    const b = summary('run-b', { experiment: { experimentId: 'exp-1', experimentName: 'ablation', variant: 'full', sample: 1 } });
    const c = summary('run-c', { experiment: { experimentId: 'exp-2', variant: 'short', sample: 0, attempt: true } });
    const d = summary('run-d');
    expect(experimentLabel(a)).toBe('ablation · full · #10');
    expect(experimentLabel(c)).toBe('exp-2 · short · #1 (set-aside attempt)');
    expect(cellText(d, 'experiment')).toBe('');
    expect(cellText(a, 'run')).toBe('run-a');
    // sample #10 after #2 (a number, not text), runs of no experiment first
    expect(sortRuns([a, c, d, b], { column: 'experiment', descending: false }).map((r) => r.runId)).toEqual(['run-d', 'run-b', 'run-a', 'run-c']);
    expect(filterRuns([a, b, c, d], { text: 'ablation', status: '', preset: '' }).map((r) => r.runId)).toEqual(['run-a', 'run-b']);
    expect(filterRuns([a, b, c, d], { text: 'run-c', status: '', preset: '' }).map((r) => r.runId)).toEqual(['run-c']);
  });
});

describe('the notice area', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('replaces a notice with the same id in place, adds others last; information expires, a warning or error stays', () => {
    const a: Notice = { id: 'a', kind: 'info', text: 'one' };
    const b: Notice = { id: 'b', kind: 'error', text: 'two' };
    const list = postNotice(postNotice([], a), b);
    expect(postNotice(list, { id: 'a', kind: 'success', text: 'three' }).map((n) => `${n.id}:${n.text}`)).toEqual(['a:three', 'b:two']);
    expect(expiryOf(a)).toBe(INFO_MS);
    expect(expiryOf({ ...a, kind: 'success' })).toBe(INFO_MS);
    expect(expiryOf(b)).toBe(0);
    expect(expiryOf({ ...b, kind: 'warning' })).toBe(0);
    expect(expiryOf({ ...a, expiresMs: 0 })).toBe(0);
  });

  it('a posted notice asks the host to render, goes after its time, and a replacement starts its time again', () => {
    vi.useFakeTimers();
    const host = { addController: vi.fn(), requestUpdate: vi.fn() } as unknown as ConstructorParameters<typeof NoticeController>[0];
    const notices = new NoticeController(host);
    notices.post({ id: 'copy', kind: 'success', text: 'Copied run-1' });
    notices.post({ id: 'err', kind: 'error', text: 'failed' });
    expect(notices.list.map((n) => n.id)).toEqual(['copy', 'err']);
    vi.advanceTimersByTime(INFO_MS - 1000);
    notices.post({ id: 'copy', kind: 'success', text: 'Copied run-2' });
    vi.advanceTimersByTime(1500);
    // the replacement's own time runs: it is still there where the first would have gone
    expect(notices.list.map((n) => n.text)).toEqual(['Copied run-2', 'failed']);
    vi.advanceTimersByTime(INFO_MS);
    expect(notices.list.map((n) => n.id)).toEqual(['err']);
    notices.dismiss('err');
    expect(notices.list).toEqual([]);
    expect((host as unknown as { requestUpdate: ReturnType<typeof vi.fn> }).requestUpdate).toHaveBeenCalled();
  });
});
