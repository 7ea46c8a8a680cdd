// Node only. Records the demo cassettes (public/cassettes/) by running each preset on the demo bug with
// hand-written replies through the real engine: real repository store, real runner (started in-process
// unless --runner/--token or REPAIRLAB_RUNNER_URL/TOKEN name one).
//
//   node --import tsx worker/cli/record-demo-cassettes.ts [--out public/cassettes] [--only <file>]
// --only re-records one cassette and leaves index.json alone.
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { toPublicBug } from '../contracts/bug.ts';
import { openNodeLab, withRunner } from './node-lab.ts';
import { RunnerClient, runnerValidator } from '../runner-client/client.ts';
import { resolveStrategy } from '../strategies/presets/index.ts';
import { toolsForStrategy } from '../strategies/strategy-tools.ts';
import { recordCassette } from '../agent/record-cassette.ts';
import { DEMO_CASSETTES } from '../records/demo-cassettes.ts';

const CHECKOUT = fileURLToPath(new URL('../../', import.meta.url));

async function main(argv: string[]): Promise<void> {
  const get = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const outDir = get('--out') ?? `${CHECKOUT}public/cassettes`;
  const only = get('--only');
  const { engine, loadJava } = await openNodeLab();
  await mkdir(outDir, { recursive: true });
  const index: unknown[] = [];
  await withRunner({ runner: get('--runner'), token: get('--token') }, async (runner) => {
    const client = new RunnerClient({ url: runner.url, token: runner.token });
    for (const demo of DEMO_CASSETTES) {
      if (only && demo.file !== only) continue;
      const { bug, workspace } = await engine.workspaceFor(demo.bugId);
      const strategy = resolveStrategy(demo.preset, { overrides: demo.overrides });
      if (strategy.toolkit === 'repairagent' || strategy.toolkit === 'hafixagent') await loadJava();
      const { cassette, trajectory } = await recordCassette({
        strategy,
        preset: demo.preset,
        overrides: demo.overrides,
        bug: toPublicBug(bug),
        workspace,
        validator: runnerValidator(client, bug.layout),
        // the same tool set the engine offers (it is part of the prompt)
        tools: toolsForStrategy(strategy),
        groundTruthPatch: bug.groundTruth.patch,
        replies: demo.replies,
      });
      cassette.provenance.overrides = demo.overrides;
      const status = trajectory.outcome?.status;
      if (status !== demo.expected) throw new Error(`${demo.file}: the recorded run ended ${status} (${trajectory.outcome?.reason}), expected ${demo.expected}`);
      await writeFile(`${outDir}/${demo.file}`, `${JSON.stringify(cassette, null, 2)}\n`);
      index.push({ file: demo.file, bugId: demo.bugId, preset: demo.preset, overrides: demo.overrides, description: demo.description, expected: demo.expected, calls: cassette.calls.length, model: cassette.model });
      console.log(`${demo.file}: ${cassette.calls.length} call(s), run ended ${status}`);
    }
  });
  if (!only) await writeFile(`${outDir}/index.json`, `${JSON.stringify({ schemaVersion: 1, cassettes: index }, null, 2)}\n`);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(`record-demo-cassettes: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
