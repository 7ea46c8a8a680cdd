import { LitElement, html } from 'lit';
import type { RunnerSettings } from '../../../worker/contracts/run-settings.ts';
import type { Health } from '../../../worker/contracts/runner-api.ts';
import { currentRunner, rereadRunner } from '../../state/runner-session.ts';
import { panelStyles } from '../shared-styles.ts';
import { runnerStatusStyles } from './runner-status.styles.ts';

export type RunnerState =
  | { kind: 'checking' }
  | { kind: 'ready'; version: string; workers: number; isolation: string }
  | { kind: 'down'; problem: RunnerProblem; message: string; todo: string };

/**
 * What is wrong with a runner that is down — each has its own fix: `url` (Settings names no URL), `unreachable`
 * (nothing answers: start it), `origin` (it answers but refuses this page's origin: --allow-origin), `token` (it
 * refuses the token, after the page read its served one again), `answer` (any other error answer).
 */
export type RunnerProblem = 'url' | 'unreachable' | 'origin' | 'token' | 'answer';

/** Where a runner's token is, in the page's words (the runner prints it: runner/src/main.ts; keeps it: data-dir.ts). */
const TOKEN_HINT =
  'A runner started by `npm start` hands its token to this page: reload the page if it restarted with another one. ' +
  'A runner started with `npm run runner` printed it at start (`Token: …`) and, unless it was given --token, keeps it in the file runner-token of its data directory: paste it into Settings → Runner token.';

async function health(runner: RunnerSettings, signal?: AbortSignal): Promise<Response> {
  return fetch(new URL('/v1/health', runner.url), { headers: runner.token ? { authorization: `Bearer ${runner.token}` } : {}, cache: 'no-store', ...(signal ? { signal } : {}) });
}

/**
 * A browser says no more than "failed to fetch" both when nothing listens and when the runner answers without this
 * origin in its CORS headers. A no-cors request tells them apart: it resolves (opaque) whenever something answers.
 */
async function answersAtAll(url: URL, signal?: AbortSignal): Promise<boolean> {
  try {
    await fetch(url, { mode: 'no-cors', cache: 'no-store', ...(signal ? { signal } : {}) });
    return true;
  } catch {
    return false;
  }
}

/**
 * Asks the runner's /v1/health (with its token) and says in plain words what is wrong when it does not answer. A
 * refused token is read again where the page's server serves it (runner-session.ts) before it is called wrong.
 */
export async function checkRunner(settings: RunnerSettings, signal?: AbortSignal): Promise<RunnerState> {
  let url: URL;
  try {
    url = new URL('/v1/health', settings.url);
  } catch {
    return { kind: 'down', problem: 'url', message: `The runner URL "${settings.url}" is not a URL.`, todo: 'Fix Settings → Runner URL (e.g. http://127.0.0.1:8765).' };
  }
  const origin = location.origin;
  let runner = currentRunner(settings);
  let res: Response;
  try {
    res = await health(runner, signal);
    if (res.status === 401) {
      const fresh = await rereadRunner(settings);
      if (fresh) {
        runner = fresh;
        res = await health(runner, signal);
      }
    }
  } catch {
    if (await answersAtAll(url, signal)) {
      return {
        kind: 'down',
        problem: 'origin',
        message: `The runner at ${settings.url} is running but does not allow this page's origin ${origin}.`,
        todo: `Restart it with --allow-origin ${origin} (\`npm run runner -- --allow-origin ${origin}\`); \`npm start\` allows its own page's origin.`,
      };
    }
    return {
      kind: 'down',
      problem: 'unreachable',
      message: `The runner at ${settings.url} does not answer: it is not running, or not at this address.`,
      todo:
        `Start it: \`npm start\` (with this app), or on its own \`npm run runner -- --allow-origin ${origin}\`; or fix Settings → Runner URL. ` +
        'A runner restarted on the same data directory keeps its token, so this page then needs nothing new.',
    };
  }
  if (res.ok) {
    const h = (await res.json()) as Partial<Health>;
    return { kind: 'ready', version: h.version ?? '?', workers: h.workers ?? 0, isolation: h.isolation?.backend ?? 'unknown' };
  }
  if (res.status === 401) {
    const reread = settings.tokenSource ? `This page read its token again from ${settings.tokenSource}, which serves no other token for this runner. ` : '';
    return { kind: 'down', problem: 'token', message: `The runner at ${settings.url} refused this page's token (answered 401).`, todo: `${reread}${TOKEN_HINT}` };
  }
  const body = (await res.json().catch(() => ({}))) as { error?: string };
  return {
    kind: 'down',
    problem: 'answer',
    message: `The runner at ${settings.url} answered ${res.status}: ${body.error ?? res.statusText}`,
    todo: "Check the runner's console output; restarting it (`npm start`, or `npm run runner`) keeps its token.",
  };
}

/**
 * @summary The runner's state up front, in the header: a pill (ready / down / checking) that checks again every 20 s and
 * when clicked; when the runner is down, what is wrong and what to do, before any run fails on it.
 *
 * @cssproperty --line - border and rule colour
 * @cssproperty --ok - colour of passes
 * @cssproperty --ok-soft - background of a pass
 * @cssproperty --bad - colour of failures and errors
 * @cssproperty --bad-soft - background of a failure or an error
 * @cssproperty --space-3 - spacing step 3 (12 px)
 * @cssproperty --text-xs - type size xs (12 px)
 * @cssproperty --text-sm - type size sm (13 px)
 */
export class RlRunnerStatus extends LitElement {
  static override properties = { runner: { attribute: false }, state: { state: true } };
  declare runner: RunnerSettings | undefined;
  declare state: RunnerState;
  private timer: ReturnType<typeof setInterval> | undefined;
  private checked: string | undefined;

  constructor() {
    super();
    this.state = { kind: 'checking' };
  }

  static override styles = [panelStyles, runnerStatusStyles];

  override connectedCallback() {
    super.connectedCallback();
    this.timer = setInterval(() => void this.check(), 20_000);
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    clearInterval(this.timer);
  }

  override updated() {
    // the runner settings changed (or arrived): check that runner now
    const key = this.runner ? `${this.runner.url}\n${this.runner.token}` : undefined;
    if (key !== this.checked) {
      this.checked = key;
      void this.check();
    }
  }

  async check() {
    if (!this.runner) return;
    const runner = this.runner;
    const state = await checkRunner(runner);
    if (runner === this.runner) this.state = state;
  }

  override render() {
    const s = this.state;
    const label = s.kind === 'ready' ? 'Runner: ready' : s.kind === 'down' ? 'Runner: down' : 'Runner: checking…';
    const title = s.kind === 'ready' ? `runner ${s.version}, ${s.workers} worker${s.workers === 1 ? '' : 's'}, isolation: ${s.isolation}` : s.kind === 'down' ? s.message : '';
    return html`<button type="button" class="pill ${s.kind}" data-testid="runner-status" data-state=${s.kind} title=${title}
        aria-label="${label}. ${title} Check again." @click=${() => void this.check()}>${label}</button>
      ${s.kind === 'down' ? html`<p class="error down-note" role="alert" data-testid="runner-down" data-problem=${s.problem}>${s.message} ${s.todo}</p>` : ''}`;
  }
}
customElements.define('rl-runner-status', RlRunnerStatus);
