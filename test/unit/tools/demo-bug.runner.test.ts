// The tools against the real runner (javac + JUnit in bubblewrap) on the bundled demo bug's real workspace.
// (An integration test by nature; it lives here because test/unit/tools/ is this area's test folder.)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRunner, type RunningRunner } from '../../../runner/src/index.ts';
import { BugSpec, toPublicBug, type PublicBug } from '../../../worker/contracts/bug.ts';
import type { ToolContext } from '../../../worker/contracts/tools.ts';
import type { Workspace } from '../../../worker/contracts/workspace.ts';
import { initJavaForNode } from '../../../worker/java/wasm-files.node.ts';
import { createNodePlatform } from '../../../worker/platform/node.ts';
import { RepoStore } from '../../../worker/repo/repo-store.ts';
import { openWorkspace } from '../../../worker/repo/git-workspace.ts';
import { RunnerClient, runnerValidator } from '../../../worker/runner-client/client.ts';
import { findTool } from '../../../worker/tools/registry.ts';

const PUBLIC = join(import.meta.dirname, '../../../public/benchmarks');
const STRINGS = 'src/main/java/org/repairlab/textkit/Strings.java';
const FIXED_LINE = '        if (s.length() <= maxLength) {';

let work: string;
let runnerData: string;
let runner: RunningRunner;
let bug: PublicBug;
let base: Workspace;
let context: (settings?: Record<string, unknown>) => ToolContext;

beforeAll(async () => {
  await initJavaForNode();
  work = mkdtempSync(join(tmpdir(), 'repairlab-tools-runner-'));
  // the runner's data dir must be its own directory under /tmp (the sandbox binds it; a 0700 parent would hide it)
  runnerData = mkdtempSync(join(tmpdir(), 'repairlab-runner-tools-'));
  runner = await startRunner({ port: 0, dataDir: runnerData, allowedOrigins: [], sandbox: 'bwrap', workers: 1, log: () => undefined });
  const spec = BugSpec.parse(JSON.parse(readFileSync(join(PUBLIC, 'bugs/textkit-1.json'), 'utf8')));
  bug = toPublicBug(spec);
  const store = new RepoStore(createNodePlatform({ root: join(work, 'store') }));
  await store.importBundle(spec.repoId, new Uint8Array(readFileSync(join(PUBLIC, 'textkit.bundle'))));
  base = await openWorkspace(await store.openRepo(spec.repoId), spec.buggyCommit);
  const validator = runnerValidator(new RunnerClient({ url: runner.url, token: runner.token }), bug.layout);
  context = (settings = {}) => ({ workspace: base.fork(), bug, validator, settings });
});

afterAll(async () => {
  await runner?.close();
  if (work) rmSync(work, { recursive: true, force: true });
  if (runnerData) rmSync(runnerData, { recursive: true, force: true });
});

describe('tools on textkit-1 with the real runner', () => {
  it('write_fix reverts a wrong fix and keeps the developer fix', async () => {
    const ctx = context();
    const writeFix = findTool('repairagent', 'write_fix')!;
    const wrong = await writeFix.run({ changes: [{ file_name: STRINGS, modifications: [{ line_number: 58, modified_line: '        if (s.length() < maxLength - 1) {' }] }] }, ctx);
    expect(wrong.data?.plausible).toBe(false);
    expect(wrong.output).toContain(`  - ${bug.failingTests[0]}`);
    expect(ctx.workspace.overlay()).toEqual({});
    const right = await writeFix.run({ changes: [{ file_name: STRINGS, modifications: [{ line_number: 58, modified_line: FIXED_LINE }] }] }, ctx);
    expect(right.data?.plausible).toBe(true);
    expect(right.output).toContain('Failing tests: 0');
    expect(await ctx.workspace.diff()).toContain(`+${FIXED_LINE}`);
  }, 180_000);

  it('bash: compile errors, then sed -i and test', async () => {
    const ctx = context();
    const bash = findTool('hafixagent', 'bash')!;
    const broken = await bash.run({ command: `sed -i '58s/{$//' ${STRINGS} && compile` }, ctx);
    expect(broken.data?.exitCode).toBe(1);
    expect(broken.data?.stderr).toMatch(/Compilation failed:\n {2}src\/main\/java\/org\/repairlab\/textkit\/Strings\.java:\d+/);
    ctx.workspace.revert();
    const fixed = await bash.run({ command: `sed -i '58s/< maxLength/<= maxLength/' ${STRINGS} && test` }, ctx);
    expect(fixed.data?.stdout).toContain('Failing tests: 0');
  }, 180_000);

  it('run_fault_localization with Ochiai ranks the buggy line among the most suspicious', async () => {
    const result = await findTool('repairagent', 'run_fault_localization')!.run({}, context({ faultLocalization: 'ochiai' }));
    expect(result.ok).toBe(true);
    const ranked = result.data?.ranked as { file: string; line: number; score: number }[];
    const position = ranked.findIndex((r) => r.file === STRINGS && r.line === 58);
    expect(position).toBeGreaterThanOrEqual(0);
    expect(position).toBeLessThan(5);
    expect(ranked.every((r) => r.file.startsWith('src/main/java/') && r.score > 0)).toBe(true);
    expect(result.output).toContain(`${STRINGS}#58#if (s.length() < maxLength) {`);
  }, 180_000);
});
