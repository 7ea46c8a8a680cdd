// CLI commands over repository history and model replies: `blame`, `history`, `parse`, `import-defects4j`.
// Each is a thin shell over the engine modules the browser worker uses too.
import { join } from 'node:path';
import type { Command } from 'commander';
import { createNodeEngine } from './node-engine.ts';

const print = (json: boolean, value: unknown, text: () => string) => console.log(json ? JSON.stringify(value, null, 2) : text());

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function registerAnalysisCommands(program: Command): void {
  program
    .command('blame <repoDir> <file>')
    .description('attribute every line of a file to the commit that last changed it, as `git blame` does (RepairLab\'s own blame)')
    .option('--rev <rev>', 'revision to blame', 'HEAD')
    .option('--json', 'one JSON object per line: {line, commit, path, origLine}')
    .action(async (repoDir: string, file: string, opts: { rev: string; json?: boolean }) => {
      const { openOnDiskRepo } = await import('../history/commands.ts');
      const { blame } = await import('../history/blame.ts');
      const lines = await blame(openOnDiskRepo(repoDir), file, opts.rev);
      for (const l of lines) {
        console.log(opts.json ? JSON.stringify({ line: l.line, commit: l.commit, path: l.path, origLine: l.origLine }) : `${l.commit.slice(0, 12)} ${l.path}:${l.origLine} → ${l.line}`);
      }
    });

  program
    .command('history <bug>')
    .description("HAFixAgent's history context of a bug: blame the fault-localization lines, then one heuristic of the blame commit")
    .requiredOption('--heuristic <h>', 'fn_all | fn_pair | fl_diff')
    .option('--mode <mode>', "'paper' (union of blamed commits) or 'code' (one chosen line)", 'paper')
    .option('--selector <s>', "code mode: which line to blame, 'first' or 'random'", 'first')
    .option('--seed <n>', 'seed for the random selector', '0')
    .option('--json', 'print the extraction and the prompt section as JSON')
    .action(async (bugId: string, opts: { heuristic: string; mode: string; selector: string; seed: string; json?: boolean }) => {
      const { HISTORY_HEURISTICS, historyContext } = await import('../history/heuristics.ts');
      const heuristic = opts.heuristic as (typeof HISTORY_HEURISTICS)[number];
      if (!HISTORY_HEURISTICS.includes(heuristic)) throw new Error(`--heuristic ${opts.heuristic}: use one of ${HISTORY_HEURISTICS.join(', ')}.`);
      if (opts.mode !== 'paper' && opts.mode !== 'code') throw new Error(`--mode ${opts.mode}: use 'paper' or 'code'.`);
      if (opts.selector !== 'first' && opts.selector !== 'random') throw new Error(`--selector ${opts.selector}: use 'first' or 'random' (llm_judge needs a model: use it from a run).`);
      const { initJavaForNode } = await import('../java/node-wasm.ts');
      await initJavaForNode();
      const engine = createNodeEngine();
      const bug = await engine.catalog.bug(bugId);
      const session = await engine.ensureRepository(bug);
      const context = await historyContext(session, bug, heuristic, { mode: opts.mode, selector: opts.selector, seed: Number(opts.seed) });
      print(!!opts.json, { bug: bugId, ...context }, () => context.text || `${bugId}: nothing to blame (no history context).`);
    });

  program
    .command('parse')
    .description('read one model reply on stdin and print the command the engine would run, with every rectification')
    .requiredOption('--preset <preset>', 'the preset whose output format and tools apply (see `repairlab presets`)')
    .option('--json', 'print JSON')
    .action(async (opts: { preset: string; json?: boolean }) => {
      const { parseReply } = await import('../agent/parse-reply.ts');
      const reply = await readStdin();
      if (!reply.trim()) throw new Error('parse: stdin is empty — pipe the model reply in, e.g. `repairlab parse --preset hafixagent < reply.txt`.');
      const parsed = await parseReply(opts.preset, reply);
      print(!!opts.json, parsed, () =>
        [
          `format: ${parsed.format}`,
          parsed.thought ? `thought: ${parsed.thought}` : '',
          parsed.command ? `command: ${parsed.command.name} ${JSON.stringify(parsed.command.args)}` : '',
          ...parsed.rectifications.map((r) => `rectified: ${JSON.stringify(r)}`),
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
    .option('--out <dir>', 'where bundles and BugSpecs go', 'defects4j-bugs')
    .option('--release <n>', 'javac --release for the imported layout', '8')
    .option('--json', 'print the import result as JSON')
    .action(async (opts: { projectRepo: string; d4j: string; project: string; bugs?: string; out: string; release: string; json?: boolean }) => {
      const { importDefects4j } = await import('../benchmarks/defects4j-import.ts');
      const release = Number(opts.release);
      if (!Number.isInteger(release) || release < 8) throw new Error(`--release ${opts.release}: give a whole number ≥ 8 (JDK 17's javac accepts no lower).`);
      const result = importDefects4j({
        projectRepo: opts.projectRepo,
        d4jDir: opts.d4j,
        project: opts.project,
        outDir: opts.out,
        javaRelease: release,
        ...(opts.bugs ? { bugs: opts.bugs } : {}),
        log: opts.json ? undefined : (m) => console.error(m),
      });
      const summary = result.bugs.map((b) => ({ id: b.spec.id, failingTests: b.spec.failingTests, category: b.spec.category, blameable: b.spec.blameable, commits: b.commits, removedTests: b.removedTests, spec: join(opts.out, b.specPath), bundle: b.bundlePath }));
      print(!!opts.json, { out: opts.out, bugs: summary }, () =>
        [...summary.map((b) => `${b.id.padEnd(12)} ${b.category.padEnd(5)} ${b.failingTests.length} failing test(s), ${b.commits} commits`), `wrote ${summary.length} bug(s) to ${opts.out}/ (index.json)`].join('\n'),
      );
    });
}
