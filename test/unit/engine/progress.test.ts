// Import progress is throttled before it crosses to the page: one message per object would flood the UI thread.
import { expect, it } from 'vitest';
import { throttleProgress } from '../../../worker/bugs/engine.ts';
import type { ImportProgress } from '../../../worker/contracts/repository.ts';

it('passes phase changes and the last report, and at most one report per interval otherwise', () => {
  const seen: ImportProgress[] = [];
  const report = throttleProgress((p) => seen.push(p), 60_000)!;
  report({ phase: 'Reading bundle', loaded: 0 });
  for (let i = 1; i <= 20_000; i++) report({ phase: 'Indexing objects', loaded: i, total: 20_000 });
  report({ phase: 'Writing refs', loaded: 1 });
  expect(seen.map((p) => `${p.phase}:${p.loaded}`)).toEqual(['Reading bundle:0', 'Indexing objects:1', 'Indexing objects:20000', 'Writing refs:1']);
  expect(throttleProgress(undefined)).toBeUndefined();
});
