// Every entry point applies a variant the same way, and a cost budget is never silently off — tested as a user meets
// them: the CLI as a child process (bin/repairlab.mjs), a real OpenAI-compatible HTTP server on 127.0.0.1 for the model
// (worker/llm/cassette-server.node.ts). No runner is needed: the commands here never reach one (the flag points at a
// closed port, so a call to it would fail the test).
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCassetteServer, type CassetteServer } from '../../../worker/llm/cassette-server.node.ts';

const BUG = 'textkit-1';
const NO_RUNNER = ['--runner', 'http://127.0.0.1:9', '--token', 'unused'];
let home: string;

function cli(args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile('node', ['bin/repairlab.mjs', ...args], { env: { ...process.env, REPAIRLAB_HOME: home }, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin!.end(stdin ?? '');
  });
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'repairlab-entry-points-'));
});

describe('repairlab parse applies the variant as a run does', () => {
  const reply = JSON.stringify({ thoughts: 'look around', command: { name: 'search_code_base', args: { key_words: ['truncate'] } } });

  it('without the variant the search command parses; with no-search-tools it is not a command of the strategy', async () => {
    const plain = await cli(['parse', '--preset', 'repairagent', '--json'], reply);
    expect(plain.code, plain.stderr).toBe(0);
    expect(JSON.parse(plain.stdout).command).toEqual({ name: 'search_code_base', args: { key_words: ['truncate'] } });
    const ablated = await cli(['parse', '--preset', 'repairagent', '--variant', 'no-search-tools', '--json'], reply);
    expect(ablated.code).toBe(1);
    const parsed = JSON.parse(ablated.stdout) as { command?: { name: string }; error?: string };
    expect(parsed.error).toMatch(/search_code_base/);
    expect(parsed.error).not.toMatch(/read as/);
  }, 60_000);

  it('refuses a misspelt override key before reading stdin, naming the nearest key', async () => {
    const r = await cli(['parse', '--preset', 'repairagent', '--overrides', '{"middleware":{"levenshteinTreshold":0.3}}'], reply);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('overrides: unknown key middleware.levenshteinTreshold — did you mean levenshteinThreshold?');
  }, 60_000);
});

describe('repairlab tool runs under the preset\'s resolved strategy', () => {
  const search = (...extra: string[]) => cli(['tool', BUG, 'repairagent', 'search_code_base', '{"key_words":["truncate"]}', ...extra, ...NO_RUNNER, '--json']);

  it("uses the preset's (the paper's) search mode, the code variant's when asked, and refuses a tool the variant removes", async () => {
    const paper = await search();
    expect(paper.code, paper.stderr).toBe(0);
    expect(JSON.parse(paper.stdout).data.mode).toBe('paper');
    const code = await search('--variant', 'code');
    expect(code.code, code.stderr).toBe(0);
    expect(JSON.parse(code.stdout).data.mode).toBe('code');
    const ablated = await search('--variant', 'no-search-tools');
    expect(ablated.code).toBe(1);
    expect(ablated.stderr).toContain('preset repairagent with no-search-tools leaves out search_code_base (toolkit repairagent has it). Its tools: ');
    const wrongKit = await search('--preset', 'passerine');
    expect(wrongKit.code).toBe(1);
    expect(wrongKit.stderr).toContain('--preset passerine uses toolkit passerine, not repairagent');
  }, 120_000);
});

describe('a cost budget is never silently off', () => {
  let model: CassetteServer;
  const done = 'THOUGHT: nothing to do.\n\n```bash\necho COMPLETE_REPAIR_SIGNAL\n```';
  beforeAll(async () => {
    model = await startCassetteServer({ replies: [done, done], port: 0, model: 'my-local-model' });
  });
  afterAll(() => model?.close());
  // HAFixAgent's preset has the paper's $1 budget; my-local-model is in no price table
  const run = (...extra: string[]) => cli(['run', BUG, '--preset', 'hafixagent', '--llm', 'openai:my-local-model', '--base-url', model.baseURL, ...extra, ...NO_RUNNER, '--json']);

  it('an unpriced model with a cost budget refuses to start, saying how to give a price or choose', async () => {
    const r = await run();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the run has a cost budget ($1) but model "my-local-model" has no price');
    expect(r.stderr).toContain('--prices <file.json> holding {"my-local-model": {"inputPerMTok": 1, "outputPerMTok": 2}}');
    expect(r.stderr).toContain('{"budgets":{"unknownPrice":"ignore"}}');
    expect(r.stderr).toContain('{"budgets":{"maxCostUsd":null}}');
    // nothing started: no model call, no record
    expect(model.requests).toHaveLength(0);
    expect(JSON.parse((await cli(['runs', '--json'])).stdout)).toEqual([]);
  }, 60_000);

  it('a price, or an explicit choice, lets it start', async () => {
    const prices = join(home, 'prices.json');
    await writeFile(prices, JSON.stringify({ 'my-local-model': { inputPerMTok: 1, outputPerMTok: 2 } }));
    const priced = await run('--prices', prices);
    expect(priced.code, priced.stderr).toBe(0);
    const t = JSON.parse(priced.stdout) as { outcome: { reason: string; totals: { costUsd: number | null } } };
    expect(t.outcome.reason).toMatch(/COMPLETE_REPAIR_SIGNAL/);
    expect(t.outcome.totals.costUsd).toBeGreaterThan(0);
    const ignored = await run('--overrides', '{"budgets":{"unknownPrice":"ignore"}}');
    expect(ignored.code, ignored.stderr).toBe(0);
    const u = JSON.parse(ignored.stdout) as { config: { strategy: { budgets: { unknownPrice: string } } }; outcome: { totals: { costUsd: number | null } } };
    expect(u.config.strategy.budgets.unknownPrice).toBe('ignore');
    // counted as unknown, not as a made-up number
    expect(u.outcome.totals.costUsd).toBeNull();
  }, 120_000);
});
