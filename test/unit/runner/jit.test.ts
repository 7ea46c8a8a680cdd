// The test JVMs' JIT: C1 alone by default (an agent's many short validations), C1 + C2 when asked (whole suites).
import { describe, expect, it } from 'vitest';
import { jitFlags, type RunnerContext } from '../../../runner/src/context.ts';

describe('jitFlags', () => {
  it('stops at C1 by default and leaves tiered compilation on when asked', () => {
    expect(jitFlags({ jit: 'c1' } as RunnerContext)).toEqual(['-XX:TieredStopAtLevel=1']);
    expect(jitFlags({ jit: 'tiered' } as RunnerContext)).toEqual([]);
  });
});
