// A fresh engine home (a temp REPAIRLAB_HOME: repositories and records) and a real runner (bubblewrap sandbox) for the
// tests of one file, torn down after them: what tests of whole runs through the RunManager share.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startRunner } from '../../runner/src/index.ts';
import { Engine } from '../../worker/bugs/engine.ts';
import { initJavaForNode } from '../../worker/java/wasm-files.node.ts';
import { createNodePlatform } from '../../worker/platform/node.ts';
import { RunManager } from '../../worker/runs/run-manager.ts';
import type { RunnerSettings } from '../../worker/contracts/run-settings.ts';

export interface RunManagerHome {
  /** the temp home directory (its records/ holds what runs stored) */
  readonly home: string;
  readonly runner: RunnerSettings;
  /** a new Engine over the home (as a reload or a second process would open it) */
  engine(): Engine;
  /** a new RunManager over a new Engine of the home, with tree-sitter Java loaded on demand */
  runs(): RunManager;
}

export function useRunManagerHome(prefix: string): RunManagerHome {
  const home = mkdtempSync(join(tmpdir(), `repairlab-${prefix}-`));
  let runner: Awaited<ReturnType<typeof startRunner>> | undefined;
  beforeAll(async () => {
    runner = await startRunner({ port: 0 });
  });
  afterAll(async () => {
    await runner?.close();
    rmSync(home, { recursive: true, force: true });
  });
  const engine = () => new Engine(createNodePlatform({ root: home }));
  return {
    home,
    get runner() {
      if (!runner) throw new Error('the runner is not started yet (use it inside a test)');
      return { url: runner.url, token: runner.token };
    },
    engine,
    runs: () => new RunManager(engine(), initJavaForNode),
  };
}
