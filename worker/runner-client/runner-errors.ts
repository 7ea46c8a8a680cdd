// Errors from the runner client, with codes callers can branch on and messages that say what to do.

export type RunnerErrorCode =
  | 'unreachable'
  | 'unauthorized'
  | 'forbidden-origin'
  | 'bad-request'
  | 'sandbox'
  | 'timeout'
  | 'server';

export class RunnerError extends Error {
  constructor(
    readonly code: RunnerErrorCode,
    message: string,
    readonly status?: number,
    readonly detail?: unknown,
  ) {
    super(message);
    this.name = 'RunnerError';
  }
}

/**
 * Where the advice is read: the browser app (Settings → Runner) or a terminal (the CLI's flags and environment
 * variables). The app's advice unless the process said otherwise (the CLI does, at its start).
 */
export type RunnerAdviceSurface = 'browser' | 'terminal';

let processSurface: RunnerAdviceSurface = 'browser';

/** For the whole process (the CLI): runner errors give the advice of this surface unless a client names its own. */
export function setRunnerAdviceSurface(surface: RunnerAdviceSurface): void {
  processSurface = surface;
}

export function defaultSurface(): RunnerAdviceSurface {
  return processSurface;
}

/** The CLI's ways of naming a runner (worker/cli/node-lab.ts withRunner). */
const TERMINAL_RUNNER = 'pass --runner <url> --token <token> (or set REPAIRLAB_RUNNER_URL and REPAIRLAB_RUNNER_TOKEN), or leave both out to start a runner in this process';

/** Maps an HTTP error answer ({error, code} body) to a RunnerError with advice. */
export function errorFromResponse(
  url: string,
  status: number,
  body: { error?: string; code?: string; detail?: unknown } | undefined,
  surface: RunnerAdviceSurface = defaultSurface(),
): RunnerError {
  const said = body?.error ? ` (${body.error})` : '';
  if (status === 401) {
    const advice =
      surface === 'terminal'
        ? `Give the token the runner printed at its start: --token <token> or REPAIRLAB_RUNNER_TOKEN (or leave out --runner to start a runner in this process).`
        : `Copy the token printed by \`npm start\` into Settings → Runner.`;
    return new RunnerError('unauthorized', `The runner at ${url} refused the token${said}. ${advice}`, status);
  }
  if (status === 403 && body?.code === 'forbidden-origin') {
    return new RunnerError('forbidden-origin', `The runner at ${url} does not accept this page's origin${said}.`, status);
  }
  if (status === 503 || body?.code === 'sandbox') {
    return new RunnerError('sandbox', `The runner at ${url} cannot sandbox this run${said}.`, status, body?.detail);
  }
  if (status >= 400 && status < 500) {
    return new RunnerError('bad-request', `The runner at ${url} rejected the request${said}.`, status, body?.detail);
  }
  return new RunnerError('server', `The runner at ${url} failed (HTTP ${status})${said}. Check the runner's console output.`, status, body?.detail);
}

export function unreachable(url: string, cause: unknown, surface: RunnerAdviceSurface = defaultSurface()): RunnerError {
  const why = cause instanceof Error ? cause.message : String(cause);
  if (surface === 'terminal') {
    return new RunnerError('unreachable', `The runner at ${url} did not answer (${why}): start it (\`npm start\`) and ${TERMINAL_RUNNER}.`);
  }
  return new RunnerError(
    'unreachable',
    `The runner at ${url} did not answer (${why}): start it with \`npm start\`, or set its URL under Settings → Runner. ` +
      'In a browser this also happens when the runner refuses the page\'s origin: start it with --allow-origin <this page\'s origin>.',
  );
}
