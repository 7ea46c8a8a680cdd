import { LitElement, html } from 'lit';
import type { RunnerSettings } from '../../../worker/contracts/run-settings.ts';
import type { Health } from '../../../worker/contracts/runner-api.ts';
import { panelStyles } from '../shared-styles.ts';
import { runnerStatusStyles } from './runner-status.styles.ts';

export type RunnerState =
  | { kind: 'checking' }
  | { kind: 'ready'; version: string; workers: number; isolation: string }
  | { kind: 'down'; message: string; todo: string };

const START_HINT = 'Start it with “npm start” (or “npm run runner”), then check Settings → Runner URL and token.';

/** Asks the runner's /v1/health (with its token) and says in plain words what is wrong when it does not answer. */
export async function checkRunner(runner: RunnerSettings, signal?: AbortSignal): Promise<RunnerState> {
  let url: URL;
  try {
    url = new URL('/v1/health', runner.url);
  } catch {
    return { kind: 'down', message: `The runner URL "${runner.url}" is not a URL.`, todo: 'Fix Settings → Runner URL (e.g. http://127.0.0.1:8765).' };
  }
  let res: Response;
  try {
    res = await fetch(url, { headers: runner.token ? { authorization: `Bearer ${runner.token}` } : {}, cache: 'no-store', ...(signal ? { signal } : {}) });
  } catch {
    // a browser says no more than "failed to fetch": the runner is down, or it refuses this page's origin (no CORS headers)
    return {
      kind: 'down',
      message: `The runner at ${runner.url} does not answer (it is not running, or it does not allow this page's origin ${location.origin}).`,
      todo: `${START_HINT} A runner started by hand needs --allow-origin ${location.origin}.`,
    };
  }
  if (res.ok) {
    const h = (await res.json()) as Partial<Health>;
    return { kind: 'ready', version: h.version ?? '?', workers: h.workers ?? 0, isolation: h.isolation?.backend ?? 'unknown' };
  }
  const body = (await res.json().catch(() => ({}))) as { error?: string };
  const todo = res.status === 401 ? 'Copy the token the runner printed at start into Settings → Runner token.' : START_HINT;
  return { kind: 'down', message: `The runner at ${runner.url} answered ${res.status}: ${body.error ?? res.statusText}`, todo };
}

/**
 * @summary The runner's state up front, in the header: a pill (ready / down / checking) that checks again every 20 s and
 * when clicked; when the runner is down, what is wrong and what to do, before any run fails on it.
 *
 * @cssproperty --bad - colour of failures and errors
 * @cssproperty --line - border and rule colour
 * @cssproperty --ok - colour of passes
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
      ${s.kind === 'down' ? html`<p class="error down-note" role="alert" data-testid="runner-down">${s.message} ${s.todo}</p>` : ''}`;
  }
}
customElements.define('rl-runner-status', RlRunnerStatus);
