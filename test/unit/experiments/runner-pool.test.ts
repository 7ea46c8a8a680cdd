// The pool's dispatch rules on their own: bug affinity, capacity, lost runners and their return. The scheduler over
// real runner processes is test/integration/cli/pool-local.test.ts.
import { describe, expect, it } from 'vitest';
import { RunnerPool } from '../../../worker/experiments/runner-pool.ts';
import { parsePoolDescriptor, poolMembers } from '../../../worker/contracts/pool-descriptor.ts';

const member = (id: string, capacity: number) => ({ id, runner: { url: `http://127.0.0.1:1/${id}`, token: 't' }, capacity });

describe('RunnerPool', () => {
  it('keeps a bug on its runner while it lives, even when another runner has room', () => {
    const up = new Set(['a', 'b']);
    const pool = new RunnerPool([member('a', 2), member('b', 2)], async (r) => up.has(r.url.split('/').at(-1)!));
    const first = pool.take('bug-1')!;
    expect(first.index).toBe(0);
    // the second bug goes where there is most room
    expect(pool.take('bug-2')!.index).toBe(1);
    expect(pool.take('bug-1')!.index).toBe(0);
    // bug-1's runner is full: its next cell waits rather than going to b
    expect(pool.pick('bug-1')).toBeUndefined();
    pool.release(first);
    expect(pool.pick('bug-1')).toBe(0);
  });

  it('never gives a runner more cells than its capacity', () => {
    const pool = new RunnerPool([member('a', 1), member('b', 3)], async () => true);
    const taken = ['x', 'y', 'z', 'w'].map((bug) => pool.take(bug)?.index);
    expect(taken).toEqual([1, 1, 0, 1]);
    expect(pool.take('v')).toBeUndefined();
    expect(pool.status().map((r) => r.busy)).toEqual([1, 3]);
    pool.noteValidation(1);
    expect(pool.status().map((r) => r.validations)).toEqual([0, 1]);
  });

  it("moves a lost runner's bugs to a live one, and takes the runner back when it answers again", async () => {
    const up = new Set(['a', 'b']);
    const pool = new RunnerPool([member('a', 2), member('b', 2)], async (r) => up.has(r.url.split('/').at(-1)!));
    pool.release(pool.take('bug-1')!);
    up.delete('a');
    expect(await pool.check(0)).toBe(false);
    expect(pool.hasOtherAlive(0)).toBe(true);
    expect(pool.take('bug-1')!.index).toBe(1);
    up.add('a');
    await pool.checkAll();
    expect(pool.status().map((r) => r.alive)).toEqual([true, true]);
    // the bug stays where it went (its snapshot and warm JVM are there now)
    expect(pool.pick('bug-1')).toBe(1);
  });

  it('tries every runner when none answers (the run waits out the outage itself)', async () => {
    const pool = new RunnerPool([member('a', 1)], async () => false);
    await pool.checkAll();
    expect(pool.take('bug-1')!.index).toBe(0);
  });

  it('a waiting acquire gets the place a release frees', async () => {
    const pool = new RunnerPool([member('a', 1)], async () => true);
    const held = pool.take('bug-1')!;
    let got: number | undefined;
    const waiting = pool.acquire('bug-2').then((l) => (got = l.index));
    await new Promise((r) => setTimeout(r, 10));
    expect(got).toBeUndefined();
    pool.release(held);
    await waiting;
    expect(got).toBe(0);
  });
});

describe('runner pool descriptor', () => {
  const valid = {
    schemaVersion: 1,
    kind: 'repairlab-runner-pool',
    name: 'lab',
    engine: 'local',
    tokenFrom: { file: '/tmp/pool/token' },
    runners: [
      { id: 'runner-1', url: 'http://127.0.0.1:9001', capacity: 2, engine: 'local', job: { kind: 'pid', id: '123' } },
      { id: 'runner-2', url: 'http://127.0.0.1:9002', capacity: 1, engine: 'local', tokenFrom: { env: 'OTHER_TOKEN' } },
    ],
  };

  it('reads the runners with their token sources', () => {
    const d = parsePoolDescriptor(valid);
    const members = poolMembers(d, (from, id) => `${JSON.stringify(from)}@${id}`);
    expect(members.map((m) => [m.id, m.capacity, m.runner.token])).toEqual([
      ['runner-1', 2, '{"file":"/tmp/pool/token"}@runner-1'],
      ['runner-2', 1, '{"env":"OTHER_TOKEN"}@runner-2'],
    ]);
  });

  it('refuses a token written into it, naming the field and what to give', () => {
    expect(() => parsePoolDescriptor({ ...valid, runners: [{ ...valid.runners[0], token: 'abc' }] }, 'pool.json')).toThrow(/pool.json: runners.0.token looks like a key field.*tokenFrom/);
  });

  it('names the field that is wrong, and refuses twice the same runner', () => {
    expect(() => parsePoolDescriptor({ ...valid, runners: [{ ...valid.runners[0], capacity: 0 }] }, 'pool.json')).toThrow(/pool.json is not a runner pool descriptor.*runners.0.capacity/);
    expect(() => parsePoolDescriptor({ ...valid, runners: [valid.runners[0], { ...valid.runners[1], url: valid.runners[0]!.url }] }, 'pool.json')).toThrow(/listed twice/);
    expect(() => parsePoolDescriptor({ ...valid, extra: 1 }, 'pool.json')).toThrow(/unknown field "extra"/);
  });
});
