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

/** Where a runner's token is to be found, as both surfaces say it (runner/src/main.ts prints it; data-dir.ts keeps it). */
const WHERE_THE_TOKEN_IS =
  'A runner started with `npm run runner` printed it at start (`Token: …`); unless it was given --token or REPAIRLAB_RUNNER_TOKEN, it is also in the file runner-token of the runner\'s data directory, and stays the same when the runner restarts on that directory.';

/** The page's origin, where this code runs in a browser (the engine worker shares the page's): what --allow-origin needs. */
function pageOrigin(): string | undefined {
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
  return origin && origin !== 'null' ? origin : undefined;
}

/** How to let this page's origin through: the flag, with the origin when known. */
function allowOriginAdvice(): string {
  const origin = pageOrigin() ?? "<this page's origin>";
  return `restart the runner with --allow-origin ${origin} (\`npm run runner -- --allow-origin ${origin}\`; \`npm start\` allows its own page's origin)`;
}

/**
 * Maps an HTTP error answer ({error, code} body) to a RunnerError with advice. `reread`: the page's runtime config
 * was read again after this 401 and served no other token for this runner (RunnerClient's tokenSource).
 */
export function errorFromResponse(
  url: string,
  status: number,
  body: { error?: string; code?: string; detail?: unknown } | undefined,
  surface: RunnerAdviceSurface = defaultSurface(),
  reread?: string,
): RunnerError {
  const said = body?.error ? ` (${body.error})` : '';
  if (status === 401) {
    const advice =
      surface === 'terminal'
        ? `Give the runner's token: --token <token> or REPAIRLAB_RUNNER_TOKEN (or leave out --runner to start a runner in this process). ${WHERE_THE_TOKEN_IS}`
        : `${reread ? `This page read ${reread} again: it serves no other token for this runner. ` : ''}` +
          `A runner started by \`npm start\` hands its token to the page (reload the page if it was restarted with another one). ${WHERE_THE_TOKEN_IS} Paste it into Settings → Runner token.`;
    return new RunnerError('unauthorized', `The runner at ${url} refused the token${said}. ${advice}`, status);
  }
  if (status === 403 && body?.code === 'forbidden-origin') {
    return new RunnerError('forbidden-origin', `The runner at ${url} does not accept this page's origin${said}: ${allowOriginAdvice()}.`, status);
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
    return new RunnerError('unreachable', `The runner at ${url} did not answer (${why}): start it (\`npm run runner\`, or \`npm start\` with the app) and ${TERMINAL_RUNNER}.`);
  }
  return new RunnerError(
    'unreachable',
    `The runner at ${url} did not answer (${why}): start it (\`npm start\` starts it with the app; on its own, \`npm run runner -- --allow-origin ${pageOrigin() ?? "<this page's origin>"}\`), or set its URL under Settings → Runner. ` +
      `A browser cannot tell a stopped runner from one that refuses the page's origin: if it is running, ${allowOriginAdvice()}.`,
  );
}
