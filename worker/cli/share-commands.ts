// Sharing (docs/formats/bundle.md): `repairlab experiment bundle | link`, `repairlab bundle open | replay` and
// `repairlab link show`. A bundle is one file holding an experiment and every run's replies; a link holds a view and
// its configuration. Neither ever holds a key. Heavy modules load inside the actions.
import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { openNodeLab, repairlabHome, withRunner, type RunnerFlags } from './node-lab.ts';
import { print } from './flags.ts';

async function readBundleFile(path: string) {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (e) {
    throw new Error(`${path}: cannot read the bundle (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
  }
  const { readBundle } = await import('../share/experiment-bundle.ts');
  return readBundle(bytes, path);
}

export function registerShareCommands(program: Command): void {
  const experiment = program.commands.find((c) => c.name() === 'experiment');
  if (!experiment) throw new Error('registerShareCommands: register the experiment commands first.');

  experiment
    .command('bundle <id>')
    .description('write the experiment as one content-addressed file (spec, cells, every trajectory and its recorded replies): replayable with no key and no model')
    .option('--out <file>', 'where to write it (default: <id>.<hash>.rlbundle.json.gz in the current directory)')
    .option('--json', 'print {file, sha256, bytes, cells, runs} as JSON')
    .action(async (id: string, opts: { out?: string; json?: boolean }) => {
      const { collectBundle, writeBundle } = await import('../share/experiment-bundle.ts');
      const content = await collectBundle((await openNodeLab()).platform.records, id);
      const { bytes, sha256, name } = await writeBundle(content);
      const file = opts.out ?? name;
      try {
        await writeFile(file, bytes);
      } catch (e) {
        throw new Error(`--out ${file}: cannot write the bundle there (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); give a writable path.`);
      }
      const info = { file, sha256, bytes: bytes.length, cells: content.cells.length, runs: content.runs.length };
      print(!!opts.json, info, () => `bundle ${sha256}\n${info.cells} cells, ${info.runs} runs, ${(info.bytes / 1024).toFixed(1)} KiB → ${file}`);
    });

  experiment
    .command('link <id>')
    .description("a link to the experiment's view carrying its spec (no key); refused when it would exceed 8,000 characters — share a bundle then (--bundle-url)")
    .option('--app <url>', 'the app address the link opens', 'http://127.0.0.1:5173/')
    .option('--bundle-url <url>', "where you will put the experiment's bundle (`experiment bundle`): the link also carries its sha256 and that address, and keeps just the view when the spec would not fit")
    .action(async (id: string, opts: { app: string; bundleUrl?: string }) => {
      const { ExperimentStore } = await import('../experiments/experiment-store.ts');
      const { encodeLink, LinkTooLongError } = await import('../share/link-codec.ts');
      const records = (await openNodeLab()).platform.records;
      const record = await new ExperimentStore(records).get(id);
      if (!record) throw new Error(`there is no experiment ${id} in ${repairlabHome()}/records (list them with \`repairlab experiments\`).`);
      const view = { kind: 'experiment', experiment: id } as const;
      let fragment: string;
      if (opts.bundleUrl === undefined) fragment = await encodeLink({ view, experiment: record.spec as never });
      else {
        const [{ parseBundleUrl }, { collectBundle, bundleHash }] = await Promise.all([import('../share/bundle-url.ts'), import('../share/experiment-bundle.ts')]);
        // the same hash `experiment bundle` names its file with: the link fetches that file and checks it
        const bundle = { sha256: await bundleHash(await collectBundle(records, id)), url: parseBundleUrl(opts.bundleUrl) };
        try {
          fragment = await encodeLink({ view, experiment: record.spec as never, bundle });
        } catch (e) {
          if (!(e instanceof LinkTooLongError)) throw e;
          fragment = await encodeLink({ view, bundle });
        }
      }
      console.log(`${opts.app.split('#')[0]}#${fragment}`);
    });

  program
    .command('link')
    .description('share links (docs/formats/bundle.md, "Links")')
    .command('show <link>')
    .description('decode a RepairLab link (a URL, #fragment or fragment) and print the view and configuration it holds, as JSON')
    .action(async (link: string) => {
      const { decodeLink } = await import('../share/link-codec.ts');
      console.log(JSON.stringify(await decodeLink(link), null, 2));
    });

  const bundle = program.command('bundle').description('experiment bundles: open one into the local records, or replay every run in it');

  bundle
    .command('open <file>')
    .description('verify a bundle and import its experiment and runs into the local records (listed by `repairlab experiments` and `runs`); all or nothing')
    .option('--json', 'print the import as JSON')
    .action(async (file: string, opts: { json?: boolean }) => {
      const verified = await readBundleFile(file);
      const { importBundle } = await import('../share/bundle-import.ts');
      const r = await importBundle((await openNodeLab()).platform.records, verified);
      print(!!opts.json, { sha256: verified.sha256, ...r }, () =>
        r.alreadyPresent
          ? `experiment ${r.experimentId} is here already with this content (bundle ${verified.sha256.slice(0, 16)}…)`
          : `opened bundle ${verified.sha256.slice(0, 16)}…: experiment ${r.experimentId}, ${r.cells} cells, ${r.runs} runs${r.runsPresent ? ` (${r.runsPresent} were here already)` : ''} → ${repairlabHome()}/records`,
      );
    });

  bundle
    .command('replay <file>')
    .description("replay every run of a bundle from its recorded replies (no key, no model) on a runner, and say whether each outcome equals the recording's")
    .option('--runner <url>', 'runner URL (default: start one in this process)')
    .option('--token <token>', 'runner token')
    .option('--json', 'print the results as JSON')
    .action(async (file: string, opts: RunnerFlags & { json?: boolean }) => {
      const verified = await readBundleFile(file);
      const [{ replayBundle }, { MemoryRecordStore }] = await Promise.all([import('../share/bundle-replay.ts'), import('../platform/memory-records.ts')]);
      // the replays' own records are kept in memory: replaying a bundle adds no runs to the local list
      const { runs } = await openNodeLab({ records: new MemoryRecordStore() });
      const results = await withRunner(opts, (runner) =>
        replayBundle(
          verified,
          async (request) => {
            const [t] = await runs.start({ ...request, runner }, () => {});
            return t!;
          },
          (r) => {
            if (!opts.json) console.log(`${r.runId}  ${r.bugId}  ${r.variant} #${r.sample + 1}: ${r.result}${r.result === 'skipped' || r.result === 'failed' ? '' : ` (recorded ${r.recorded}${r.replayed && r.replayed !== r.recorded ? `, replayed ${r.replayed}` : ''})`} — ${r.detail}`);
          },
        ),
      );
      const count = (k: string) => results.filter((r) => r.result === k).length;
      if (opts.json) console.log(JSON.stringify({ sha256: verified.sha256, results }, null, 2));
      else console.log(`${count('equal')} equal, ${count('different')} different, ${count('failed')} failed, ${count('skipped')} skipped`);
      if (count('different') || count('failed')) process.exitCode = 1;
    });
}
