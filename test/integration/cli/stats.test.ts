// `repairlab stats` as a user runs it: JSON piped into the real CLI in a child process — through `npx repairlab`
// where the npx path itself is the point, else `node bin/repairlab.mjs` (the same entry, without npm's start-up).
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../../', import.meta.url).pathname;

function run(args: string[], stdin: string, command = ['node', 'bin/repairlab.mjs']): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, [...command.slice(1), ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}
const stats = (test: string, data: unknown, json = true) => run(['stats', test, ...(json ? ['--json'] : [])], JSON.stringify({ data }));

describe('repairlab stats', () => {
  it('npx repairlab stats mcnemar --json: the exact test on the discordant pairs (b = 3, c = 1 → p = 0.625)', async () => {
    const { code, stdout, stderr } = await run(['stats', 'mcnemar', '--json'], JSON.stringify({ data: [[1, 0], [1, 0], [1, 0], [0, 1], [1, 1], [0, 0]] }), ['npx', '--no', 'repairlab']);
    expect(stderr).not.toMatch(/repairlab/);
    expect(code).toBe(0);
    const r = JSON.parse(stdout);
    expect(r).toMatchObject({ statistic: 1, n: 6, method: 'exact', discordant: { firstOnly: 3, secondOnly: 1 } });
    expect(r.pvalue).toBeCloseTo(0.625, 14);
  });

  it('wilcoxon --json: statistic, p-value, which method and why, and the effect sizes', async () => {
    const { code, stdout } = await stats('wilcoxon', [[2, 1], [4, 2], [6, 3], [8, 4], [10, 5]]);
    expect(code).toBe(0);
    const r = JSON.parse(stdout);
    expect(r).toMatchObject({ statistic: 0, n: 5, method: 'exact', effectSize: { rankBiserial: 1, cliffsDelta: 0.6 } });
    expect(r.pvalue).toBeCloseTo(0.0625, 15);
    expect(r.methodReason).toMatch(/no zero or tied differences/);
  });

  it("cochran and friedman --json; friedman's text names Kendall's W", async () => {
    const cochran = JSON.parse((await stats('cochran', [[1, 0, 1], [1, 1, 1], [0, 0, 1], [1, 0, 0]])).stdout);
    expect(cochran.statistic).toBeCloseTo(8 / 3, 14);
    expect(cochran.pvalue).toBeCloseTo(Math.exp(-4 / 3), 14);
    const table = [[1, 5, 9], [2, 3, 4], [0.1, 0.2, 0.3], [7, 8, 100]];
    const friedman = JSON.parse((await stats('friedman', table)).stdout);
    expect(friedman).toMatchObject({ df: 2, n: 4, k: 3 });
    expect(friedman.kendallW).toBeCloseTo(1, 12);
    const text = await stats('friedman', table, false);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Friedman χ² = 8, df 2, p = 0\.0183 .*Kendall's W = 1/);
  });

  it.each([
    ['a row with 3 columns', ['mcnemar'], '{"data": [[1,0],[0,1,1]]}', /data\[1\] \(row 2\) has 3 columns but row 1 has 2/],
    ['a value that is not a number', ['cochran'], '{"data": [[1,0],[0,"x"]]}', /value "x" at data\[1\]\[1\] \(row 2, column 2\) is not a finite number/],
    ['a 2 where 0/1 belongs', ['mcnemar', '--json'], '{"data": [[1,0],[0,2]]}', /value 2 at data\[1\]\[1\] .*is not 0\/1/],
    ['stdin that is not JSON', ['wilcoxon'], '[[1,2]', /stdin is not JSON .*pipe \{"data"/],
    ['no "data" field', ['friedman'], '{"rows": []}', /stdin has no "data" field/],
    ['empty stdin', ['wilcoxon'], '', /stdin is empty/],
    ['an unknown test', ['ttest'], '{"data": [[1,2]]}', /unknown test "ttest": use one of mcnemar, cochran, friedman, wilcoxon/],
    ['a statistic that is undefined on the data', ['wilcoxon'], '{"data": [[1,1],[2,2]]}', /all 2 pairs are equal/],
  ])('bad input → exit code 2 and a message naming it: %s', async (_what, args, stdin, message) => {
    const { code, stdout, stderr } = await run(['stats', ...args], stdin);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^repairlab stats: /);
    expect(stderr).toMatch(message);
  });

  it('npx passes the exit code 2 through', async () => {
    const { code, stderr } = await run(['stats', 'wilcoxon'], '{"data": [[1,2],[2,"x"]]}', ['npx', '--no', 'repairlab']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/repairlab stats: Wilcoxon: value "x" at data\[1\]\[1\]/);
  });

  it('loads the statistics module (and its @stdlib packages) only when the command runs', async () => {
    // stats-command.ts registered on a fresh program: nothing from @stdlib is loaded until `stats` is parsed
    const probe = `
      import { register } from 'tsx/esm/api';
      import { createRequire } from 'node:module';
      register();
      const { Command } = await import('commander');
      const { registerStatsCommand } = await import('./worker/cli/stats-command.ts');
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes('@stdlib')).length;
      const program = new Command();
      registerStatsCommand(program);
      console.error('before ' + loaded());
      await program.parseAsync(['node', 'repairlab', 'stats', 'mcnemar', '--json']);
      console.error('after ' + loaded());
    `;
    const { code, stdout, stderr } = await run([], '{"data": [[1,0],[0,1],[1,0]]}', ['node', '--input-type=module', '-e', probe]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).pvalue).toBe(1);
    expect(stderr).toMatch(/before 0\n/);
    expect(Number(/after (\d+)/.exec(stderr)?.[1])).toBeGreaterThan(0);
  });
});
