// CLI commands over repository history and model replies: `blame`, `history`, `parse`, `import-defects4j`.
// Each is a thin shell over the engine modules the browser worker uses too.
import { join } from 'node:path';
import type { Command } from 'commander';
import { openNodeLab, repairlabHome } from './node-lab.ts';
import { oneOf, parseJsonFlag, print, wholeNumber } from './flags.ts';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function registerAnalysisCommands(program: Command): void {
  program
    .command('blame <repoDir> <file>')
    .description("attribute every line of a file to the commit that last changed it, as `git blame` does (RepairLab's own blame)")
    .option('--rev <rev>', 'revision to blame (commit id, branch or tag)', 'HEAD')
    .option('--json', 'one JSON object per line of the file: {line, commit, path, origLine}')
    .action(async (repoDir: string, file: string, opts: { rev: string; json?: boolean }) => {
      const { blameCommand, openOnDiskRepo } = await import('./on-disk-repo.ts');
      if (opts.json) {
        // JSON Lines, so that `| head` or `| jq -c` work on large files
        for await (const line of blameCommand(repoDir, file, opts.rev)) console.log(line);
        return;
      }
      const { blame } = await import('../history/blame.ts');
      const lines = await blame(openOnDiskRepo(repoDir), file, opts.rev);
      const width = String(lines.length).length;
      for (const l of lines) console.log(`${String(l.line).padStart(width)}  ${l.commit.slice(0, 12)}  ${l.path}:${l.origLine}`);
    });

  program
    .command('history <bug>')
    .description("HAFixAgent's history context of a bug: blame the fault-localization lines, then one heuristic of the blame commit")
    .requiredOption('--heuristic <h>', 'fn_all | fn_pair | fl_diff')
    .option('--mode <mode>', "'paper' (union of blamed commits) or 'code' (one chosen line)", 'paper')
    .option('--selector <s>', "code mode: which line to blame, 'first' or 'random'", 'first')
    .option('--seed <n>', 'seed for the random selector', '0')
    .option('--max-diff-chars <n>', 'fl_diff: characters of the diff kept (released code: 3000)')
    .option('--max-function-chars <n>', 'fn_pair: characters of each function version kept (released code: 1500)')
    .option('--max-names <n>', 'fn_all: names listed (released code: 600)')
    .option('--max-files <n>', 'fn_all: changed program files considered (released code: 50)')
    .option('--json', 'print {bug, heuristic, extraction, text} (text: the prompt section)')
    .action(
      async (
        bugId: string,
        opts: { heuristic: string; mode: string; selector: string; seed: string; maxDiffChars?: string; maxFunctionChars?: string; maxNames?: string; maxFiles?: string; json?: boolean },
      ) => {
        const { HISTORY_HEURISTICS, historyContext } = await import('../history/heuristics.ts');
        if (/^(none|non-history|no-history)$/i.test(opts.heuristic)) {
          throw new Error(
            `--heuristic ${opts.heuristic}: "no history" is not a heuristic of the history module — it is HAFixAgent's default (historyContext: non-history), ` +
              `which adds no history section to the prompt. To see a history section use one of ${HISTORY_HEURISTICS.join(', ')}.`,
          );
        }
        const heuristic = oneOf('--heuristic', opts.heuristic, HISTORY_HEURISTICS);
        const mode = oneOf('--mode', opts.mode, ['paper', 'code'] as const);
        if (opts.selector === 'llm_judge') throw new Error('--selector llm_judge needs a model to ask, which this command does not have: use first or random.');
        const selector = oneOf('--selector', opts.selector, ['first', 'random'] as const);
        const seed = wholeNumber('--seed', opts.seed, 0);
        const settings = {
          ...(opts.maxDiffChars !== undefined ? { maxDiffChars: wholeNumber('--max-diff-chars', opts.maxDiffChars) } : {}),
          ...(opts.maxFunctionChars !== undefined ? { maxFunctionChars: wholeNumber('--max-function-chars', opts.maxFunctionChars) } : {}),
          ...(opts.maxNames !== undefined ? { maxNames: wholeNumber('--max-names', opts.maxNames) } : {}),
          ...(opts.maxFiles !== undefined ? { maxFiles: wholeNumber('--max-files', opts.maxFiles) } : {}),
        };
        const { engine, loadJava } = await openNodeLab();
        const bug = await engine.catalog.bug(bugId);
        await loadJava();
        const session = await engine.ensureRepository(bug);
        // worker/cli/on-disk-repo.ts historyCommand is this call without the caps; the caps are heuristic settings
        const context = await historyContext(session, bug, heuristic, { mode, selector, seed, settings });
        print(!!opts.json, { bug: bugId, ...context }, () => context.text || `${bugId}: no ${heuristic} history context: ${context.emptyReason ?? 'nothing to blame'}.`);
      },
    );

  program
    .command('parse')
    .description('read one model reply on stdin and print the command the engine would run, with every rectification (exit 1 when the reply does not parse)')
    .requiredOption('--preset <preset>', 'the preset whose output format and tools apply (see `repairlab presets`)')
    .option('--variant <id...>', "the preset's named variants, e.g. code (RepairAgent's released-code name matching)")
    .option('--overrides <json>', 'StrategySpec overrides as JSON, e.g. \'{"middleware":{"levenshteinThreshold":0.3}}\'')
    .option('--json', 'print {preset, format, thought?, command?, rectifications, error?}')
    .action(async (opts: { preset: string; variant?: string[]; overrides?: string; json?: boolean }) => {
      const { parseReply } = await import('../strategies/parse-reply.ts');
      const { resolveStrategy } = await import('../strategies/presets/index.ts');
      const overrides = opts.overrides ? parseJsonFlag('--overrides', opts.overrides, '{"middleware":{"levenshteinThreshold":0.3}}') : undefined;
      const resolveOpts = { ...(opts.variant ? { variants: opts.variant } : {}), ...(overrides ? { overrides } : {}) };
      resolveStrategy(opts.preset, resolveOpts); // refuse an unknown preset or variant before waiting on stdin
      if (process.stdin.isTTY) console.error('repairlab parse: reading the model reply from stdin (end with Ctrl-D)…');
      const reply = await readStdin();
      if (!reply.trim()) throw new Error(`parse: stdin is empty — pipe the model reply in, e.g. \`repairlab parse --preset ${opts.preset} < reply.txt\`.`);
      const parsed = await parseReply(opts.preset, reply, resolveOpts);
      print(!!opts.json, parsed, () =>
        [
          `format: ${parsed.format}`,
          parsed.thought ? `thought: ${parsed.thought}` : '',
          parsed.command ? `command: ${parsed.command.name} ${JSON.stringify(parsed.command.args)}` : '',
          ...parsed.rectifications.map((r) => `rectified (${r.kind}): ${r.message}`),
          parsed.error ? `error (fed back to the model): ${parsed.error}` : '',
        ]
          .filter(Boolean)
          .join('\n'),
      );
      if (parsed.error) process.exitCode = 1;
    });

  program
    .command('import-defects4j')
    .description('turn Defects4J bugs into RepairLab bugs (git bundles with real history + BugSpecs)')
    .requiredOption('--project-repo <dir>', "the project's git repository (Defects4J: project_repos/<name>.git)")
    .requiredOption('--d4j <dir>', 'a Defects4J checkout (contains framework/projects/)')
    .requiredOption('--project <id>', 'Defects4J project id, e.g. Lang')
    .option('--bugs <list>', 'bug ids, e.g. 1-5,9 (default: every active bug)')
    .option('--out <dir>', 'where bundles, BugSpecs and index.json go', 'defects4j-bugs')
    .option('--release <n>', 'javac --release for the imported layout', '8')
    .option('--descriptions <file>', 'bug reports as JSON, {"<id>": {"title": "…", "body": "…"}} (id: "1" or "Lang-1"); default: the trigger tests\' failure')
    .option('--exclusions <dir>', "the projects' environment exclusion files, <dir>/<Project>.json (default: the ones RepairLab ships, data/defects4j/environment-exclusions/)")
    .option('--no-exclusions', "apply no environment exclusions: the specs carry Defects4J's own broken tests only")
    .option('--register', "also add the imported bugs to this CLI's catalogue (REPAIRLAB_HOME), so `repairlab validate|run|history <id>` use them")
    .option('--json', 'print the import result as JSON')
    .action(async (opts: { projectRepo: string; d4j: string; project: string; bugs?: string; out: string; release: string; descriptions?: string; exclusions?: string | false; register?: boolean; json?: boolean }) => {
      const { importDefects4j } = await import('../node/defects4j/defects4j-import.ts');
      const { registerImported } = await import('../node/defects4j/register.ts');
      const release = Number(opts.release);
      if (!Number.isInteger(release) || release < 8) throw new Error(`--release ${opts.release}: give a whole number ≥ 8 (JDK 17's javac accepts no lower).`);
      const result = importDefects4j({
        projectRepo: opts.projectRepo,
        d4jDir: opts.d4j,
        project: opts.project,
        outDir: opts.out,
        javaRelease: release,
        ...(opts.bugs ? { bugs: opts.bugs } : {}),
        ...(opts.descriptions ? { descriptions: opts.descriptions } : {}),
        ...(opts.exclusions !== undefined ? { exclusionsDir: opts.exclusions } : {}),
        // failures are reported once, below, not as they happen
        log: opts.json ? undefined : (m) => (m.endsWith(' — skipped') ? undefined : console.error(m)),
      });
      // what did import is always written and registered, whatever failed
      const registrationFailures = opts.register ? await registerImported((await openNodeLab()).engine, result.bugs, opts.out) : [];
      const failures = [...result.failures, ...registrationFailures];
      if (failures.length) process.exitCode = 1;
      const summary = result.bugs.map((b) => ({
        id: b.spec.id,
        failingTests: b.spec.failingTests,
        category: b.spec.category,
        blameable: b.spec.blameable,
        commits: b.commits,
        removedTests: b.removedTests,
        unmatchedTests: b.unmatchedTests,
        spec: join(opts.out, b.specPath),
        bundle: b.bundlePath,
      }));
      print(!!opts.json, { out: opts.out, registered: !!opts.register, bugs: summary, failures }, () =>
        [
          ...summary.map((b) => `${b.id.padEnd(12)} ${b.category.padEnd(5)} ${b.blameable ? 'blameable' : 'blameless'}  ${b.failingTests.length} failing test(s), ${b.commits} commits`),
          ...failures.map((f) => (f.refused ? `REFUSED ${f.bugId}: ${f.refused}` : `FAILED ${f.message}${f.input ? `\n       input at fault: ${f.input}` : ''}`)),
          `wrote ${summary.length} bug(s) to ${opts.out}/ (index.json)${countFailures(failures)}`,
          opts.register ? `registered in ${repairlabHome()}: try \`repairlab validate ${summary[0]?.id ?? '<id>'} --patch ground-truth\`` : 'add --register to use them from this CLI',
        ].join('\n'),
      );
    });
}

/** "; 2 refused (a build RepairLab does not run), 1 failed" — refusals apart from failures. */
function countFailures(failures: { refused?: string }[]): string {
  const refused = failures.filter((f) => f.refused).length;
  const failed = failures.length - refused;
  return [refused ? `${refused} refused (a build RepairLab does not run)` : '', failed ? `${failed} failed` : ''].filter(Boolean).map((t) => `; ${t}`).join('');
}
