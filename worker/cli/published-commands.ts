// `repairlab published import | list`: other tools' published per-bug results as patch-only runs of a named external
// variant, every patch re-validated on the runner, with the agreement between the published verdict and ours per bug
// (docs/formats/published.md). `experiment report <id> --with-published <variant>` puts the variant beside the
// experiment's own.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { PublishedEntry } from '../records/published-formats.ts';
import { openNodeLab, withRunner, type RunnerFlags } from './node-lab.ts';
import { oneOf, print } from './flags.ts';

const FORMATS = ['hafix-repairagent', 'repairagent', 'hafix', 'hafix-birch'] as const;
const MODES = ['code', 'paper'] as const;

/** The files given, directories walked (sorted, so runs are numbered the same every time). */
async function filesOf(paths: readonly string[], keep: (name: string) => boolean): Promise<string[]> {
  const out: string[] = [];
  const walk = async (path: string, given: boolean): Promise<void> => {
    const s = await stat(path).catch(() => undefined);
    if (!s) throw new Error(`${path}: no such file or directory`);
    if (s.isDirectory()) {
      for (const name of (await readdir(path)).sort()) await walk(join(path, name), false);
    } else if (given || keep(path)) out.push(path);
  };
  for (const p of paths) await walk(p, true);
  return out;
}

interface ImportFlags extends RunnerFlags {
  format: string;
  variant: string;
  bugs?: string;
  applyMode: string;
  json?: boolean;
}

export function registerPublishedCommands(program: Command): void {
  const published = program.command('published').description("other tools' published results as runs of an external variant, re-validated (docs/formats/published.md)");

  published
    .command('import <paths...>')
    .description('read published per-bug files (or directories of them), re-validate every patch on the runner, store each as a patch-only run of --variant, and print the agreement per bug')
    .requiredOption('--format <format>', `${FORMATS.join(' | ')}`)
    .requiredOption('--variant <name>', 'the external variant the runs belong to (letters, digits, . _ -), e.g. repairagent-deepseek')
    .option('--bugs <ids>', 'only these bugs (comma-separated, RepairLab ids such as Cli-11)')
    .option('--apply-mode <mode>', "write_fix changes applied as RepairAgent's released code does ('code', default: how its verdicts were reached) or as its paper says ('paper')", 'code')
    .option('--runner <url>', 'runner URL (default: REPAIRLAB_RUNNER_URL, else one started for this command)')
    .option('--token <token>', 'runner token (default: REPAIRLAB_RUNNER_TOKEN)')
    .option('--json', 'print JSON')
    .action(async (paths: string[], opts: ImportFlags) => {
      const format = oneOf('--format', opts.format, FORMATS);
      const mode = oneOf('--apply-mode', opts.applyMode, MODES);
      const [{ readPublishedFile, isPublishedFileOf }, { importPublished, runnerValidator, VARIANT_NAME }] = await Promise.all([
        import('../records/published-formats.ts'),
        import('../experiments/published-import.ts'),
      ]);
      if (!VARIANT_NAME.test(opts.variant)) throw new Error(`--variant ${JSON.stringify(opts.variant)}: a variant name is letters, digits and . _ -`);
      const files = await filesOf(paths, (name) => isPublishedFileOf(format, name));
      if (files.length === 0) throw new Error(`${paths.join(', ')}: no ${format} file found (docs/formats/published.md lists the file names each format reads)`);
      const only = opts.bugs ? new Set(opts.bugs.split(',').map((b) => b.trim()).filter(Boolean)) : undefined;
      const entries: PublishedEntry[] = [];
      for (const file of files) entries.push(...readPublishedFile(format, await readFile(file, 'utf8'), file).filter((e) => !only || only.has(e.bugId)));
      if (entries.length === 0) throw new Error(`no entry of ${only ? `the bugs ${[...only].join(', ')} ` : ''}in ${files.length} file(s)`);
      const lab = await openNodeLab();
      const needsRunner = entries.some((e) => e.patch.kind !== 'none');
      const run = (validate: Parameters<typeof importPublished>[2]) =>
        importPublished(lab.engine, lab.platform.records, validate, entries, {
          format,
          variant: opts.variant,
          writeFixMode: mode,
          onEntry: (r) => {
            if (!opts.json) process.stderr.write(`${r.bugId}#${r.entry} (${r.source}): published ${r.published ? 'plausible' : 'not plausible'}, ours ${r.ours === null ? 'not re-validated' : r.ours ? 'plausible' : 'not plausible'}${r.note ? ` — ${r.note}` : ''}\n`);
          },
        });
      const result = needsRunner
        ? await withRunner(opts, (runner) => run(runnerValidator(runner)))
        : await run(() => Promise.reject(new Error('no patch to validate')));
      print(!!opts.json, result, () =>
        [
          `${result.variant} (${result.format}): ${result.runs.length} run(s) of ${result.bugs.length} bug(s)`,
          'bug\tentries\tpublished\tours\tagreement',
          ...result.bugs.map((b) => `${b.bugId}\t${b.entries}\t${b.publishedPlausible ? 'plausible' : 'not plausible'}\t${b.ourPlausible === null ? '—' : b.ourPlausible ? 'plausible' : 'not plausible'}\t${b.agreement === null ? 'not re-validated' : b.agreement ? 'agree' : `DISAGREE${b.disagreeingEntries ? ` (${b.disagreeingEntries} entr${b.disagreeingEntries === 1 ? 'y' : 'ies'})` : ''}`}`),
          `agreement: ${result.agreed} of ${result.compared} re-validated bug(s)`,
        ].join('\n'),
      );
    });

  published
    .command('list')
    .description('the imported published variants: runs, bugs, and the agreement of the re-validated ones')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const lab = await openNodeLab();
      const { listTrajectoryHeaders } = await import('../records/persistence.ts');
      const headers = (await listTrajectoryHeaders(lab.platform.records)).filter((h) => h.published);
      const byVariant = new Map<string, { format: string; runs: number; bugs: Set<string>; agreeing: number; compared: number }>();
      for (const h of headers) {
        const p = h.published!;
        const v = byVariant.get(p.variant) ?? { format: p.format, runs: 0, bugs: new Set<string>(), agreeing: 0, compared: 0 };
        v.runs++;
        v.bugs.add(h.bug.id);
        if (p.agreement !== null) {
          v.compared++;
          if (p.agreement) v.agreeing++;
        }
        byVariant.set(p.variant, v);
      }
      const rows = [...byVariant].map(([variant, v]) => ({ variant, format: v.format, runs: v.runs, bugs: v.bugs.size, agreeingRuns: v.agreeing, revalidatedRuns: v.compared }));
      print(!!opts.json, rows, () => (rows.length ? ['variant\tformat\truns\tbugs\tagreeing runs', ...rows.map((r) => `${r.variant}\t${r.format}\t${r.runs}\t${r.bugs}\t${r.agreeingRuns} of ${r.revalidatedRuns}`)].join('\n') : 'no published results imported (repairlab published import)'));
    });
}
