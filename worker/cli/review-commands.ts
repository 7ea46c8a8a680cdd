// `repairlab review …`: patch review in the terminal (docs/cli.md, docs/formats/labels.md). The queue of an
// experiment's (or some runs') plausible patches that no exact or AST match decides, labelled by named raters from
// the keyboard; labels, resolutions and the agreement between raters, stored in $REPAIRLAB_HOME/records.
import { readFile, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import type { LabelValue } from '../contracts/patch-labels.ts';
import type { ReviewItem } from '../experiments/review-queue.ts';
import type { ReviewTarget } from '../experiments/review-api.ts';
import type { Agreement } from '../experiments/label-agreement.ts';
import type { PatchEvidence } from '../contracts/patch-evidence.ts';
import { openNodeLab, withRunner } from './node-lab.ts';
import { oneOf, print, wholeNumber } from './flags.ts';

const KEYS: Record<string, LabelValue> = { c: 'correct', o: 'overfitting', u: 'unsure' };

function targetOf(target: string, opts: { runs?: boolean }): ReviewTarget {
  return opts.runs ? { runIds: target.split(',').map((s) => s.trim()).filter(Boolean) } : { experimentId: target };
}

/**
 * Evidence lines beside an item (never a label): "later tests of FooTest @ abc1234: fix passes 12, candidate fails 2:
 * testX, testY". The same words as overfitting-evidence.ts evidenceLine, kept here so the CLI's start-up loads no engine.
 */
function evidenceLines(evidence: PatchEvidence[] | undefined, indent = '  '): string[] {
  return (evidence ?? []).map((e) => {
    const where = `later tests of ${e.testClass.split('.').pop()} @ ${e.commit.slice(0, 7)}${e.afterFix ? '' : ' (a branch beside the fix)'}`;
    if (e.status === 'not-applicable') return `${indent}${where}: not applicable — ${e.reason ?? 'does not compile against the fix'}`;
    const fails = e.candidateFails.map((f) => f.id.split('::')[1] ?? f.id);
    return `${indent}${where}: fix passes ${e.fixPasses}, candidate fails ${fails.length}${fails.length ? `: ${fails.join(', ')}` : ''}${e.fixFails.length ? ` (the fix fails ${e.fixFails.length} of its own)` : ''}`;
  });
}

function itemText(item: ReviewItem, index: number, total: number): string {
  const runs = item.runs.map((r) => (r.variant ? `${r.variant}#${(r.sample ?? 0) + 1}` : r.runId)).join(', ');
  const faults = item.faultLines.map((f) => `${f.file}:${f.lines.join(',')} (${f.kind}${f.method ? `, ${f.method}` : ''})`).join('; ') || '—';
  const labels = item.raterLabels.map((l) => `${l.rater}: ${l.label}${l.note ? ` (${l.note})` : ''}`).join('; ') || 'none';
  return [
    `── ${index + 1}/${total} · ${item.bugId} · patch ${item.patchKey} · ${item.runs.length} run${item.runs.length === 1 ? '' : 's'} (${runs})`,
    `why: ${item.why}`,
    `fault lines (developers' fix): ${faults}`,
    `passing tests: ${item.passingTests.length ? item.passingTests.join(', ') : '—'}`,
    `labels so far: ${labels}${item.resolved ? ` · resolved: ${item.resolved.label} by ${item.resolved.by}` : ''}`,
    ...(item.evidence?.length ? ['evidence (not a label):', ...evidenceLines(item.evidence)] : []),
    '── candidate patch',
    item.patch.trimEnd(),
    "── developers' fix",
    (item.developerPatch || '(none)').trimEnd(),
  ].join('\n');
}

function agreementText(a: Agreement): string {
  const k = a.kappa;
  const head = a.method && k?.kappa !== null && k?.kappa !== undefined
    ? `${a.method === 'cohen' ? "Cohen's" : "Fleiss'"} kappa ${k.kappa.toFixed(4)} over ${k.items} patches (observed ${k.observed.toFixed(4)}, chance ${k.expected.toFixed(4)})`
    : `kappa: ${k?.note ?? a.note ?? '—'}`;
  const lines = a.disagreements.map((d) => `  ${d.bugId} ${d.patchKey}: ${Object.entries(d.labels).map(([r, l]) => `${r} ${l}`).join(', ')}${d.resolved ? ` → resolved ${d.resolved}` : ' (unresolved)'}`);
  return [`raters: ${a.raters.join(', ') || '—'} · ${a.labelledPatches} labelled patches`, head, `${a.disagreements.length} disagreement${a.disagreements.length === 1 ? '' : 's'}${lines.length ? ':' : ''}`, ...lines].join('\n');
}

/** Reads one answer line per item from stdin (a terminal or a pipe): c / o / u [note], s to skip, q to stop. */
async function labelInteractively(items: ReviewItem[], rater: string, label: (item: ReviewItem, value: LabelValue, note?: string) => Promise<void>): Promise<{ labelled: number; skipped: number }> {
  const rl = createInterface({ input: process.stdin, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  let labelled = 0;
  let skipped = 0;
  try {
    for (const [i, item] of items.entries()) {
      process.stdout.write(`${itemText(item, i, items.length)}\n[c]orrect  [o]verfitting  [u]nsure  (a note may follow: "o drops the null check")  [s]kip  [q]uit — ${rater}> `);
      for (;;) {
        const next = await lines.next();
        if (next.done) return { labelled, skipped: skipped + items.length - i };
        const answer = String(next.value).trim();
        const key = answer[0]?.toLowerCase() ?? '';
        if (key === 'q') return { labelled, skipped: skipped + items.length - i };
        if (key === 's') {
          skipped++;
          break;
        }
        const value = KEYS[key];
        if (!value) {
          process.stdout.write(`"${answer}": answer c, o, u (a note may follow), s or q> `);
          continue;
        }
        const note = answer.slice(1).trim();
        await label(item, value, note || undefined);
        process.stdout.write(`→ ${value}${note ? ` (${note})` : ''}\n`);
        labelled++;
        break;
      }
    }
  } finally {
    rl.close();
  }
  return { labelled, skipped };
}

export function registerReviewCommands(program: Command): void {
  const review = program.command('review').description("patch correctness review: plausible patches no exact or AST match decides, labelled by named raters (docs/formats/labels.md)");

  review
    .command('queue <target>')
    .description('the review queue of an experiment (or, with --runs, of runs a,b,…): one item per (bug, normalised patch), beside the developers\' fix; with --rater, label them from the keyboard')
    .option('--runs', '<target> is a comma-separated list of run ids')
    .option('--rater <name>', "label the items this rater has not labelled yet: c / o / u (+ a note), s skip, q quit — one answer per line on stdin")
    .option('--all', 'with --rater: also the items this rater labelled before (to change a label)')
    .option('--json', 'print the queue as JSON')
    .action(async (target: string, opts: { runs?: boolean; rater?: string; all?: boolean; json?: boolean }) => {
      const lab = await openNodeLab();
      const api = await lab.review();
      const queue = await api.queue(targetOf(target, opts));
      if (!opts.rater) {
        print(!!opts.json, queue, () =>
          [`${queue.items.length} patch${queue.items.length === 1 ? '' : 'es'} to review (${queue.unlabelled} without a label the metrics count); ${queue.decidedRuns} plausible run${queue.decidedRuns === 1 ? '' : 's'} decided by exact or AST match`,
            ...queue.items.flatMap((it) => [
              `${it.bugId} ${it.patchKey}  ${it.runs.length} run${it.runs.length === 1 ? '' : 's'}  ${it.label ?? 'unlabelled'}  ${it.raterLabels.map((l) => `${l.rater}:${l.label}`).join(' ')}`,
              ...(it.evidence?.length ? [`  evidence (not a label):`, ...evidenceLines(it.evidence, '    ')] : []),
            ])].join('\n'),
        );
        return;
      }
      const rater = opts.rater;
      const todo = queue.items.filter((it) => opts.all || !it.raterLabels.some((l) => l.rater === rater));
      const done = await labelInteractively(todo, rater, async (item, label, note) => {
        await api.label({ bugId: item.bugId, patchKey: item.patchKey, rater, label, ...(note ? { note } : {}) });
      });
      console.log(`\n${rater}: ${done.labelled} labelled, ${done.skipped} left; ${queue.items.length - todo.length} labelled before.`);
    });

  review
    .command('evidence <target>')
    .description("the history-aware overfitting check: each queue item's candidate and the developers' fix run against later revisions of the bug's test classes from its real history (after the fix); stored beside the item as evidence, never as a label (docs/formats/labels.md)")
    .option('--runs', '<target> is a comma-separated list of run ids')
    .option('--bug <id>', "only this bug's items")
    .option('--revisions <n>', 'later revisions per test file (default 3)')
    .option('--history-repo <dir>', "the project's real git repository (a work tree or a bare mirror): later revisions come from its branches instead of the bug's bundle — Defects4J bundles stop at the buggy revision, so their bugs get evidence only with it")
    .option('--runner <url>', 'runner URL (default: start one in this process)')
    .option('--token <token>', 'runner token')
    .option('--json', 'print the evidence as JSON')
    .action(async (target: string, opts: { runs?: boolean; bug?: string; revisions?: string; historyRepo?: string; runner?: string; token?: string; json?: boolean }) => {
      const revisions = opts.revisions === undefined ? undefined : wholeNumber('--revisions', opts.revisions);
      // Node only, loaded with the command: a session on the on-disk repository (an error names a directory that is none)
      const historyRepo = opts.historyRepo ? (await import('./on-disk-repo.ts')).openOnDiskRepo(opts.historyRepo) : undefined;
      const api = await (await openNodeLab()).review();
      const done = await withRunner(opts, (runner) =>
        api.computeEvidence(targetOf(target, opts), {
          runner,
          ...(opts.bug ? { bugId: opts.bug } : {}),
          ...(revisions !== undefined ? { revisions } : {}),
          ...(historyRepo ? { historyRepo } : {}),
          ...(opts.json ? {} : { onProgress: (m: string) => console.error(m) }),
        }),
      );
      print(!!opts.json, done, () => {
        const byItem = new Map<string, PatchEvidence[]>();
        for (const e of done.evidence) byItem.set(`${e.bugId} ${e.patchKey}`, [...(byItem.get(`${e.bugId} ${e.patchKey}`) ?? []), e]);
        return [
          `evidence for ${done.items} item${done.items === 1 ? '' : 's'} (not labels):`,
          ...[...byItem].flatMap(([key, es]) => [key, ...evidenceLines(es)]),
          ...(done.items > byItem.size ? [`${done.items - byItem.size} item${done.items - byItem.size === 1 ? '' : 's'} without a later revision of their test classes in the ${opts.historyRepo ? `history of ${opts.historyRepo}` : 'stored history (a Defects4J bug needs --history-repo <the project\'s repository>)'}`] : []),
        ].join('\n');
      });
    });

  review
    .command('label <bug> <patchKey> <label>')
    .description("one rater's label of one patch (correct | overfitting | unsure: contracts/patch-labels.ts LABEL_VALUES); labelling again replaces it")
    .requiredOption('--rater <name>', 'who labels')
    .option('--note <text>', 'why')
    .action(async (bug: string, key: string, label: string, opts: { rater: string; note?: string }) => {
      // the contracts load with the command, not at the CLI's start-up
      const { LABEL_VALUES } = await import('../contracts/patch-labels.ts');
      const api = await (await openNodeLab()).review();
      const r = await api.label({ bugId: bug, patchKey: key, rater: opts.rater, label: oneOf('<label>', label, LABEL_VALUES), ...(opts.note ? { note: opts.note } : {}) });
      console.log(`${r.rater}: ${r.bugId} ${r.patchKey} ${r.label}`);
    });

  review
    .command('resolve <bug> <patchKey> <label>')
    .description('the resolved label of a patch the raters disagree on (kept apart from their own labels; the metrics count it)')
    .requiredOption('--by <name>', 'who resolved it')
    .option('--note <text>', 'why')
    .action(async (bug: string, key: string, label: string, opts: { by: string; note?: string }) => {
      const { LABEL_VALUES } = await import('../contracts/patch-labels.ts');
      const api = await (await openNodeLab()).review();
      const r = await api.resolve({ bugId: bug, patchKey: key, label: oneOf('<label>', label, LABEL_VALUES), by: opts.by, ...(opts.note ? { note: opts.note } : {}) });
      console.log(`resolved: ${r.bugId} ${r.patchKey} ${r.label} (by ${r.by})`);
    });

  review
    .command('agreement [target]')
    .description("Cohen's kappa (two raters) or Fleiss' kappa (more) and the disagreements — over every label, or over an experiment's queue (--runs: of runs a,b,…)")
    .option('--runs', '[target] is a comma-separated list of run ids')
    .option('--json', 'print it as JSON')
    .action(async (target: string | undefined, opts: { runs?: boolean; json?: boolean }) => {
      const api = await (await openNodeLab()).review();
      const a = await api.agreement(target ? targetOf(target, opts) : undefined);
      print(!!opts.json, a, () => agreementText(a));
    });

  review
    .command('export')
    .description('every label and resolution as one JSON label file (docs/formats/labels.md)')
    .option('--out <file>', 'write it there instead of stdout')
    .action(async (opts: { out?: string }) => {
      const api = await (await openNodeLab()).review();
      const text = JSON.stringify({ kind: 'repairlab-labels', schemaVersion: 1, ...(await api.labels.all()) }, null, 2) + '\n';
      if (opts.out) await writeFile(opts.out, text);
      else process.stdout.write(text);
    });

  review
    .command('import <file>')
    .description('adds the labels of a label file (`review export`, a bundle\'s labels); a label already here for the same patch and rater is kept')
    .action(async (file: string) => {
      const { parseLabelFile } = await import('../contracts/patch-labels.ts');
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (e) {
        throw new Error(`${file}: cannot read the label file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
      }
      const set = parseLabelFile(text, file);
      const api = await (await openNodeLab()).review();
      const r = await api.labels.merge(set);
      console.log(`${file}: ${r.added} label${r.added === 1 ? '' : 's'} added, ${r.kept} already here kept`);
    });
}
