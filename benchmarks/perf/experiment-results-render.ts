// Rendering the results of an experiment with 1,000 trajectories in Chromium (Debian's, through Playwright): the
// Experiments tab's matrix and results (tables and every chart) for 4 variants × 50 bugs × 5 samples.
//
// The trajectories are real agent-loop records (the Passerine preset over the demo Clamp project with scripted
// replies, test/unit/experiments/metrics/runs.ts: a fix, a commented fix, a wrong edit, a search spree), dealt out
// to the 1,000 cells by a fixed rule and renamed per cell. The report is the engine's (`buildReport` with the metrics
// and statistics, then `reportViewOf`, as the worker sends it to the page), built here in Node; the page gets it as
// plain data, as it gets it from the worker over Comlink.
//
// Printed, measured, not asserted (goals: render < 1 s, longest block while scrolling < 100 ms):
//   render_ms        from inserting the matrix and results elements until both are rendered and laid out (lit's update
//                    done, then a forced synchronous style and layout of the document)
//   first_frame_ms   the same until the next animation frame (includes the wait for the frame: noisy on a busy machine)
//   scroll_longest_task_ms   the longest main-thread task (PerformanceObserver 'longtask', ≥ 50 ms; 0: none) while the
//                    matrix scrolls through every bug and the page through every table and chart (charts draw as
//                    they scroll into view; the matrix renders the rows in view)
//   scroll_longest_frame_ms  the longest gap between animation frames over the same scroll
//
//   npx vite build --outDir /tmp/dist-x && node --import tsx benchmarks/perf/experiment-results-render.ts /tmp/dist-x
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { startAppServer } from '../../scripts/serve-app.ts';
import { parseExperimentSpec, type CellRecord, type ExperimentRecord } from '../../worker/contracts/experiment.ts';
import type { BugCategory } from '../../worker/contracts/bug.ts';
import type { Trajectory } from '../../worker/contracts/trajectory.ts';
import { reportViewOf } from '../../worker/experiments/experiments-api.ts';
import { reportAnalyses } from '../../worker/experiments/analyses.ts';
import { loadJavaSyntax } from '../../worker/experiments/metrics/index.ts';
import { buildReport } from '../../worker/experiments/report.ts';
import { nodeJavaWasm } from '../../worker/java/wasm-files.node.ts';
import { GROUND_TRUTH, scriptedRun, SCRIPTS, SRC, SRC_TEXT } from '../../test/unit/experiments/metrics/runs.ts';

export interface ResultsRenderBench {
  trajectories: number;
  variants: number;
  bugs: number;
  samples: number;
  /** the engine's report and chart tables in Node (context: the worker does this before the page renders) */
  report_ms: number;
  render_ms: number;
  first_frame_ms: number;
  scroll_longest_task_ms: number;
  scroll_longest_frame_ms: number;
  long_tasks_while_scrolling: number;
}

const VARIANTS = ['passerine', 'passerine-fl', 'hafix-like', 'repairagent-like'];
const BUGS = 50;
const SAMPLES = 5;
const CATEGORIES: BugCategory[] = ['SL', 'SH', 'SFMH', 'MFMH'];

/** The experiment's records and its report view, as the worker would send them. */
export async function thousandTrajectoryReport() {
  const scripts = await Promise.all((['fix', 'fixWithComment', 'wrong', 'searchy'] as const).map((s) => scriptedRun(SCRIPTS[s])));
  const bugs = Array.from({ length: BUGS }, (_, i) => ({ id: `demo-${String(i + 1).padStart(3, '0')}`, category: CATEGORIES[i % 4]! }));
  const spec = parseExperimentSpec({
    schemaVersion: 1,
    name: 'render-1000',
    bugs: bugs.map((b) => b.id),
    variants: VARIANTS.map((name) => ({ name, preset: 'passerine' })),
    samples: SAMPLES,
    model: { provider: 'custom', baseURL: 'http://127.0.0.1:9/v1', model: 'priced-model' },
  });
  const runs = new Map<string, Trajectory>();
  const cells: CellRecord[] = [];
  for (const [b, bug] of bugs.entries())
    for (const [v, variant] of VARIANTS.entries())
      for (let sample = 0; sample < SAMPLES; sample++) {
        const index = cells.length;
        // a fixed rule, so variants differ by bug: variant v fixes about (v + 1) in 6 samples
        const pick = (b * 7 + v * 3 + sample * 5) % 6 <= v ? (sample % 2 ? 1 : 0) : (b + sample) % 3 === 0 ? 3 : 2;
        const t = structuredClone(scripts[pick]!);
        t.runId = `run-${index}`;
        t.bug = { ...t.bug, id: bug.id };
        runs.set(t.runId, t);
        const plausible = pick < 2;
        cells.push({ experimentId: 'exp-render-1000', index, bugId: bug.id, variant, sample, runner: 0, status: plausible ? 'plausible' : 'not-plausible', runId: t.runId, startedAt: '', attempts: [], reason: '', costUsd: t.outcome!.totals.costUsd ?? null, calls: t.steps.length, steps: t.steps.length });
      }
  const record: ExperimentRecord = { schemaVersion: 1, kind: 'repairlab-experiment', id: 'exp-render-1000', createdAt: new Date(0).toISOString(), updatedAt: new Date(0).toISOString(), status: 'finished', spec: spec as unknown as Record<string, unknown>, bugs, runnerOfBug: Object.fromEntries(bugs.map((b) => [b.id, 0])), cells: cells.length, wallMsBefore: 0 };
  const syntax = await loadJavaSyntax(await nodeJavaWasm());
  const started = performance.now();
  const analyses = reportAnalyses({
    syntax,
    bugMeta: async (id) => ({ id, category: bugs.find((b) => b.id === id)!.category, groundTruthPatch: GROUND_TRUTH, buggyFiles: { [SRC]: SRC_TEXT, 'README.md': '# demo\n' }, testDirs: ['src/test/java'] }),
  });
  const report = await buildReport(record, spec, cells, async (id) => runs.get(id), analyses);
  const view = await reportViewOf(report);
  return { record, cells, view, reportMs: performance.now() - started };
}

export async function benchResultsRender(distDir: string): Promise<ResultsRenderBench> {
  const { record, cells, view, reportMs } = await thousandTrajectoryReport();
  const app = await startAppServer({ dir: distDir });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // tsx (esbuild keepNames) wraps the evaluated function's inner functions in __name(): give the page one
    await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
    await page.goto(app.url);
    await page.waitForFunction(() => !!customElements.get('rl-experiment-results') && !!customElements.get('rl-experiment-matrix'));
    const data = JSON.parse(JSON.stringify({ record, cells, view })) as unknown;
    return await page.evaluate(async (input) => {
      const { record, cells, view } = input as { record: unknown; cells: unknown; view: unknown };
      const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
      document.body.replaceChildren();
      const host = document.createElement('div');
      document.body.append(host);
      const longTasks: { start: number; duration: number }[] = [];
      new PerformanceObserver((list) => list.getEntries().forEach((e) => longTasks.push({ start: e.startTime, duration: e.duration }))).observe({ type: 'longtask' });

      const started = performance.now();
      const matrix = Object.assign(document.createElement('rl-experiment-matrix'), { record, cells });
      const results = Object.assign(document.createElement('rl-experiment-results'), { view, cells });
      host.append(matrix, results);
      await (matrix as unknown as { updateComplete: Promise<unknown> }).updateComplete;
      await (results as unknown as { updateComplete: Promise<unknown> }).updateComplete;
      // style and layout now, synchronously: the page is rendered; painting waits for the next frame
      void document.documentElement.getBoundingClientRect().height;
      void results.shadowRoot!.lastElementChild?.getBoundingClientRect().height;
      const renderMs = performance.now() - started;
      await frame();
      const firstFrameMs = performance.now() - started;

      // scroll through the matrix, then the whole page, most of a screen at a time, a frame per step, noting the
      // gaps between frames
      let longestFrame = 0;
      let last = await frame();
      const scrollStart = last;
      const scroller = matrix.shadowRoot!.querySelector('.scroller')!;
      while (scroller.scrollTop + scroller.clientHeight < scroller.scrollHeight - 1) {
        scroller.scrollBy(0, scroller.clientHeight * 0.8);
        const now = await frame();
        longestFrame = Math.max(longestFrame, now - last);
        last = now;
      }
      while (window.scrollY + window.innerHeight < document.documentElement.scrollHeight - 1) {
        window.scrollBy(0, window.innerHeight * 0.8);
        const now = await frame();
        longestFrame = Math.max(longestFrame, now - last);
        last = now;
      }
      for (let i = 0; i < 5; i++) {
        const now = await frame();
        longestFrame = Math.max(longestFrame, now - last);
        last = now;
      }
      await new Promise((r) => setTimeout(r, 200));
      // entries are delivered late: keep those that began once scrolling had started
      return { renderMs, firstFrameMs, longestFrame, longTasks: longTasks.filter((t) => t.start >= scrollStart).map((t) => t.duration) };
    }, data).then((r) => ({
      trajectories: cells.length,
      variants: VARIANTS.length,
      bugs: BUGS,
      samples: SAMPLES,
      report_ms: Math.round(reportMs),
      render_ms: Math.round(r.renderMs),
      first_frame_ms: Math.round(r.firstFrameMs),
      scroll_longest_task_ms: Math.round(Math.max(0, ...r.longTasks)),
      scroll_longest_frame_ms: Math.round(r.longestFrame),
      long_tasks_while_scrolling: r.longTasks.length,
    }));
  } finally {
    await browser.close();
    await app.close();
  }
}

export function resultsRenderText(r: ResultsRenderBench): string {
  return [
    `results of ${r.trajectories} trajectories (${r.variants} variants × ${r.bugs} bugs × ${r.samples} samples) in Chromium`,
    `  engine report + chart tables (Node): ${r.report_ms} ms`,
    `  render (matrix + results, every table, laid out): ${r.render_ms} ms, first frame after ${r.first_frame_ms} ms  (goal < 1000 ms)`,
    `  scrolling through it (charts draw as they appear): longest task ${r.scroll_longest_task_ms} ms, longest frame ${r.scroll_longest_frame_ms} ms, ${r.long_tasks_while_scrolling} tasks ≥ 50 ms  (goal < 100 ms)`,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dist = process.argv[2] ?? fileURLToPath(new URL('../../dist', import.meta.url));
  const r = await benchResultsRender(dist);
  console.log(resultsRenderText(r));
  if (process.argv.includes('--json')) console.log(JSON.stringify(r));
}
