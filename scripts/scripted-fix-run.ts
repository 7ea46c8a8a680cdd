// By hand, on real data: HAFixAgent fixes a registered bug end to end with a scripted model served over real HTTP.
//   npx tsx scripts/scripted-fix-run.ts <bug> [--variant fl_diff] [--out run.json] [--runner URL --token T]
// The scripted replies are what a sensible agent would type into HAFixAgent's bash: read each file the developer fix
// touches, write the fixed file (a heredoc), run the tests (`defects4j test`), finish. The run goes through the real
// CLI (`repairlab run --preset hafixagent --llm openai:scripted --base-url <local server>`), the real openai SDK and
// the runner, so the outcome (plausible, exact match) is the product's own verdict. REPAIRLAB_HOME chooses the
// catalogue, as for the CLI. CI covers the same path on the generated fixture (hafix-defects4j.test.ts).
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openNodeLab } from '../worker/cli/node-lab.ts';
import { applyUnifiedDiff } from '../worker/diff/apply-diff.ts';
import { openWorkspace } from '../worker/repo/git-workspace.ts';
import { startCassetteServer } from '../worker/llm/cassette-server.node.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { variant: { type: 'string', default: 'fl_diff' }, out: { type: 'string' }, runner: { type: 'string' }, token: { type: 'string' } },
});
const bugId = positionals[0];
if (!bugId) throw new Error('usage: scripted-fix-run.ts <bug> [--variant fl_diff|fn_pair|fn_all|non-history] [--out file] [--runner URL --token T]');
const out = values.out ?? `${bugId}.hafix.trajectory.json`;

const { engine } = await openNodeLab();
const bug = (await engine.catalog.bugs()).find((b) => b.id === bugId);
if (!bug) throw new Error(`${bugId} is not in the catalogue of REPAIRLAB_HOME (${process.env.REPAIRLAB_HOME ?? '~/.repairlab'})`);
if (!bug.groundTruth.patch) throw new Error(`${bugId} has no ground-truth patch to script`);

// the fixed files, as the developer fix leaves them
const workspace = await openWorkspace(await engine.ensureRepository(bug), bug.buggyCommit);
const applied = await applyUnifiedDiff(workspace, bug.groundTruth.patch);
const files = applied.files;

const bash = (thought: string, command: string) => `THOUGHT: ${thought}\n\n\`\`\`bash\n${command}\n\`\`\``;
const heredoc = async (path: string) => {
  const text = await workspace.read(path);
  let mark = 'REPAIRLAB_EOF';
  while (text.includes(mark)) mark += '_';
  return `cat > ${path} <<'${mark}'\n${text.endsWith('\n') ? text : `${text}\n`}${mark}`;
};
const replies = [
  ...files.map((f) => bash(`Read ${f}, where the failing tests point.`, `cat ${f}`)),
  ...(await Promise.all(files.map(async (f) => bash(`Rewrite ${f} with the fix.`, await heredoc(f))))),
  bash('Run the tests.', 'defects4j test'),
  bash('The tests pass; done.', 'echo COMPLETE_REPAIR_SIGNAL'),
];

const model = await startCassetteServer({ replies, port: 0 });
try {
  const cliPath = fileURLToPath(new URL('../bin/repairlab.mjs', import.meta.url));
  const args = [cliPath, 'run', bugId, '--preset', 'hafixagent', '--llm', 'openai:scripted', '--base-url', model.baseURL];
  // non-history is the preset's default (no variant)
  if (values.variant !== 'non-history') args.push('--variant', values.variant);
  args.push('--overrides', '{"budgets":{"unknownPrice":"ignore"}}', '--out', out);
  if (values.runner) args.push('--runner', values.runner, ...(values.token ? ['--token', values.token] : []));
  const code = await new Promise<number>((resolve) => {
    const child = execFile('node', args, { maxBuffer: 256 << 20 }, (err) => resolve(err ? ((err as { code?: number }).code ?? 1) : 0));
    child.stdout?.pipe(process.stdout);
    child.stderr?.pipe(process.stderr);
  });
  if (!existsSync(out)) throw new Error(`repairlab run exited ${code} without writing ${out} (its output is above)`);
  const t = JSON.parse(readFileSync(out, 'utf8')) as { outcome: { status: string; plausible: boolean | null; exactMatch: boolean | null }; steps: unknown[] };
  console.log(`${bugId} (hafixagent ${values.variant}, ${files.length} file(s) rewritten): ${t.outcome.status}, plausible ${t.outcome.plausible}, exact match ${t.outcome.exactMatch}, ${t.steps.length} steps; model served ${model.requests.length} request(s); trajectory ${out}`);
  process.exitCode = code || (t.outcome.plausible ? 0 : 1);
} finally {
  await model.close();
}
