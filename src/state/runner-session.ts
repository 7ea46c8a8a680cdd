// The page's side of a runner that restarted with another token: when the runner refuses the token of Settings (401),
// the token is read again where the page's own server serves it (/runtime-config.json, RunnerSettings.tokenSource),
// and remembered for that runner and that stale token, so later checks use it at once. The engine worker does the
// same for runs (worker/runner-client/client.ts), so a run never needs the page to pass a new token on.
import type { RunnerSettings } from '../../worker/contracts/run-settings.ts';
import { readServedToken } from '../../worker/runner-client/served-token.ts';

/** runner URL + the token Settings holds → the token the page's server served instead, after a 401 */
const reread = new Map<string, string>();
const key = (runner: RunnerSettings) => `${runner.url}\n${runner.token}`;

/** `runner` with the token a re-read found for it, if one did; otherwise `runner` itself. */
export function currentRunner(runner: RunnerSettings): RunnerSettings {
  const token = reread.get(key(runner));
  return token === undefined ? runner : { ...runner, token };
}

/**
 * After `runner` (as Settings has it) was refused: `runner` with the token its token source serves now, when that
 * is another token for the same runner URL; undefined when there is no token source or it serves nothing new.
 */
export async function rereadRunner(runner: RunnerSettings): Promise<RunnerSettings | undefined> {
  if (!runner.tokenSource) return undefined;
  const token = await readServedToken(runner.tokenSource, runner.url);
  if (token === undefined) return undefined;
  const before = currentRunner(runner).token;
  if (token === runner.token) reread.delete(key(runner));
  else reread.set(key(runner), token);
  return token === before ? undefined : { ...runner, token };
}
