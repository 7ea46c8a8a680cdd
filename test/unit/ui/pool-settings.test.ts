// The page's runner pool (src/state/pool-settings.ts): a descriptor pasted or opened in Settings, refused when it holds
// a token or is not one; experiments then run on its runners (url, capacity) with the token the person gave.
import { describe, expect, it } from 'vitest';
import { describePool, experimentRunners, PAGE_POOL_HEALTH_EVERY_MS, readPoolDescriptor } from '../../../src/state/pool-settings.ts';

const descriptor = {
  schemaVersion: 1,
  kind: 'repairlab-runner-pool',
  name: 'lab',
  engine: 'static',
  tokenFrom: { ask: true },
  runners: [
    { id: 'a', url: 'http://127.0.0.1:9001', capacity: 2, engine: 'static' },
    { id: 'b', url: 'http://127.0.0.1:9002', capacity: 3, engine: 'static' },
  ],
};
const single = { url: 'http://127.0.0.1:8765', token: 'single-runner-token' };

describe('the page takes a pool descriptor', () => {
  it('reads a descriptor, and describes it by name, runners and capacity', () => {
    const d = readPoolDescriptor(JSON.stringify(descriptor), 'pool.json');
    expect(d.runners.map((r) => [r.url, r.capacity])).toEqual([['http://127.0.0.1:9001', 2], ['http://127.0.0.1:9002', 3]]);
    expect(describePool(d)).toBe('lab (static): 2 runners, 5 validations at once');
  });

  it('refuses what is not a descriptor, or one holding a token, naming the source', () => {
    expect(() => readPoolDescriptor('{', 'the pasted pool descriptor')).toThrow(/the pasted pool descriptor is not JSON/);
    expect(() => readPoolDescriptor(JSON.stringify({ ...descriptor, runners: [] }), 'pool.json')).toThrow(/pool.json .*runners/);
    expect(() => readPoolDescriptor(JSON.stringify({ ...descriptor, token: 'abc' }), 'pool.json')).toThrow(/pool.json.*never holds a token/);
  });

  it('experiments run on every runner of the pool with the token given, each with its capacity; without a pool on the single runner', () => {
    const d = readPoolDescriptor(JSON.stringify(descriptor), 'pool.json');
    const on = experimentRunners(single, { descriptor: d, token: 'the-pool-token' });
    expect(on.runners).toEqual([{ url: 'http://127.0.0.1:9001', token: 'the-pool-token' }, { url: 'http://127.0.0.1:9002', token: 'the-pool-token' }]);
    expect(on.pool).toEqual({ members: [{ id: 'a', runner: on.runners[0], capacity: 2 }, { id: 'b', runner: on.runners[1], capacity: 3 }], healthEveryMs: PAGE_POOL_HEALTH_EVERY_MS });
    expect(experimentRunners(single, undefined)).toEqual({ runners: [single] });
    // no token given yet: the message says where to give it, and nothing runs without it
    expect(() => experimentRunners(single, { descriptor: d, token: '' })).toThrow(/Runner pool lab: .*Settings → Runner pool/);
  });
});
