// HAFixAgent end to end on an imported Defects4J bug (the generated fixture's Calc-3, whose buggy version is a
// synthetic reconstruction commit on top of the original buggy revision): the real CLI imports and registers the
// bugs, `repairlab run --preset hafixagent` drives a scripted OpenAI-compatible model over real HTTP on 127.0.0.1,
// and a real runner (bubblewrap, javac, JUnit) validates. The scripted replies are bash commands a sensible agent
// would type: read the faulty file, apply the developer's fix with sed, run the tests, finish.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCassetteServer } from '../../../worker/llm/cassette-server.node.ts';
import { startTestRunner, type TestRunner } from '../runner/helpers.ts';
import { createDefects4jFixture, type Defects4jFixture } from './support/defects4j-fixture.ts';

const root = mkdtempSync(join(tmpdir(), 'repairlab-hafix-d4j-'));
const home = join(root, 'home');
const out = join(root, 'out');
let fixture: Defects4jFixture;
let runner: TestRunner;

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('node', ['bin/repairlab.mjs', ...args], { env: { ...process.env, REPAIRLAB_HOME: home }, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const SIGN = 'src/main/java/org/fixture/Sign.java';
const bash = (thought: string, command: string) => `THOUGHT: ${thought}\n\n\`\`\`bash\n${command}\n\`\`\``;
const DEVELOPER_FIX =
  `sed -i -e 's/ZERO_SIGN = -1;/ZERO_SIGN = 0;/' -e 's/return value > 0 ? 1 : ZERO_SIGN;/return value > 0 ? 1 : value == 0 ? ZERO_SIGN : -1;/' ${SIGN} && cat ${SIGN}`;
const WRONG_EDIT = `sed -i 's/return value > 0 ? 1 : ZERO_SIGN;/return value >= 0 ? 1 : ZERO_SIGN;/' ${SIGN} && cat ${SIGN}`;
const replies = (edit: string) => [
  bash('Read the faulty file first.', `cat ${SIGN}`),
  bash('The sign of zero must be 0; apply the fix.', edit),
  bash('Run the tests.', 'defects4j test'),
  bash('Done.', 'echo COMPLETE_REPAIR_SIGNAL'),
];

interface Trajectory {
  steps: { prompt: { messages: { role: string; content: string }[] }; tool?: { output?: string } }[];
  outcome: { status: string; plausible: boolean | null; exactMatch: boolean | null; finalPatch: string };
}

async function hafixRun(variant: string, edit: string, name: string): Promise<{ t: Trajectory; stderr: string }> {
  const model = await startCassetteServer({ replies: replies(edit), port: 0 });
  try {
    const file = join(root, `${name}.trajectory.json`);
    const r = await cli([
      'run', 'Calc-3', '--preset', 'hafixagent', '--variant', variant, '--llm', 'openai:scripted', '--base-url', model.baseURL,
      '--overrides', '{"budgets":{"unknownPrice":"ignore"}}', '--out', file, '--runner', runner.url, '--token', runner.token,
    ]);
    return { t: JSON.parse(readFileSync(file, 'utf8')) as Trajectory, stderr: `${r.code} ${r.stdout}\n${r.stderr}` };
  } finally {
    await model.close();
  }
}

beforeAll(async () => {
  fixture = createDefects4jFixture(root);
  runner = await startTestRunner();
  const r = await cli(['import-defects4j', '--project-repo', fixture.projectRepo, '--d4j', fixture.d4jDir, '--project', 'Calc', '--bugs', '1-3', '--out', out, '--register']);
  if (r.code !== 0) throw new Error(`import-defects4j failed:\n${r.stderr}`);
}, 120_000);
// KEEP=1 keeps the temp dir (fixture, REPAIRLAB_HOME, trajectories) for a look by hand
afterAll(async () => {
  await runner?.stop();
  if (!process.env.KEEP) rmSync(root, { recursive: true, force: true });
});

describe('HAFixAgent on an imported Defects4J bug', () => {
  const bug = () => JSON.parse(readFileSync(join(out, 'bugs/Calc-3.json'), 'utf8')) as { buggyCommit: string; historyCommit?: string };

  it.each(['fl_diff', 'fn_pair'])('%s: the developer fix ends plausible and exact, with history at the original revision and no synthetic commit', async (variant) => {
    const { buggyCommit, historyCommit } = bug();
    // the import reconstructs the buggy version on top of the original buggy revision
    expect(historyCommit).toBe(fixture.revisions.buggy3);
    expect(buggyCommit).not.toBe(historyCommit);

    const { t, stderr } = await hafixRun(variant, DEVELOPER_FIX, `fix-${variant}`);
    expect(t.outcome, stderr).toMatchObject({ status: 'plausible', plausible: true, exactMatch: true });
    expect(t.outcome.finalPatch).toContain('+    static final int ZERO_SIGN = 0;');
    expect(t.steps[2]!.tool?.output).toContain('All tests pass.');

    // the first prompt carries exactly what `repairlab history` prints for this bug and heuristic
    const history = await cli(['history', 'Calc-3', '--heuristic', variant]);
    expect(history.code, history.stderr).toBe(0);
    const firstPrompt = t.steps[0]!.prompt.messages.map((m) => m.content).join('\n');
    expect(firstPrompt).toContain('Historical context');
    expect(firstPrompt).toContain(history.stdout.trim());
    // blamed at the original buggy revision: the commit that added Sign, showing its code as it was then
    expect(history.stdout).toContain(`Commit: ${fixture.revisions.introducesBug3}`);
    expect(history.stdout).toContain('public static int of(int v) {');
    if (variant === 'fn_pair') expect(history.stdout).toContain('Blamed line: src/main/java/org/fixture/Sign.java:12 (line 11 of');
    // and nothing that only the fix has
    for (const fixOnly of ['ZERO_SIGN = 0;', 'value == 0 ? ZERO_SIGN : -1']) expect(firstPrompt).not.toContain(fixOnly);

    // the synthetic reconstruction commit shows nowhere: no prompt, no tool output
    const seen = t.steps.flatMap((s) => [...s.prompt.messages.map((m) => m.content), s.tool?.output ?? '']).join('\n');
    for (const id of [buggyCommit, buggyCommit.slice(0, 7)]) expect(seen).not.toContain(id);
  }, 300_000);

  it('a wrong edit ends not plausible', async () => {
    const { t, stderr } = await hafixRun('fl_diff', WRONG_EDIT, 'wrong');
    expect(t.outcome.status, stderr).toBe('implausible');
    expect(t.outcome.plausible).toBe(false);
    expect(t.outcome.exactMatch).toBe(false);
  }, 300_000);
});
