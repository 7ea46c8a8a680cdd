// Why a replayed cycle's engine time is larger than the same code run in a loop: the first run of a code path after
// the thread slept (waiting for the model or a tool) is several times slower than the next run — caches and branch
// predictors are cold again (on this 2-core VM the vCPU is also descheduled while idle). The agent loop runs each of
// its steps once per cycle, always right after such a wait. This prints, for a few small functions of the loop's
// kind, the time of a run right after a 3 ms sleep and of the run right after that, medians side by side.
//
//   node --import tsx benchmarks/perf/wake-penalty.ts
import { parseBashBlock } from '../../worker/strategies/middleware/parse.ts';
import { canonicalJson } from '../../worker/llm/prompt-hash.ts';
import { trimObservation } from '../../worker/agent/observation.ts';

const reply = 'THOUGHT: read the method.\n\n```bash\ngrep -n "truncate" src/main/java/org/repairlab/textkit/Strings.java\n```';
const output = Array.from({ length: 40 }, (_, i) => `${i + 1}: a line of tool output`).join('\n');
const subjects: Record<string, () => unknown> = {
  'parse a bash reply': () => parseBashBlock(reply),
  'canonical JSON of a command': () => canonicalJson({ name: 'bash', args: { command: 'sed -n 50,65p Strings.java' } }),
  'trim an observation': () => trimObservation(output, { maxChars: 1000, head: 500, tail: 500 }),
  'ISO timestamp': () => new Date().toISOString(),
};

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

export function wakePenalty(rounds = 200): Array<{ subject: string; afterSleepUs: number; againUs: number; ratio: number }> {
  const rows = [];
  for (const [subject, run] of Object.entries(subjects)) {
    for (let i = 0; i < 2000; i++) run(); // compiled and hot
    const cold: number[] = [];
    const hot: number[] = [];
    for (let i = 0; i < rounds; i++) {
      Atomics.wait(sleeper, 0, 0, 3); // the thread sleeps, as it does while a model or tool call is in flight
      let t = performance.now();
      run();
      cold.push(performance.now() - t);
      t = performance.now();
      run();
      hot.push(performance.now() - t);
    }
    const afterSleepUs = median(cold) * 1000;
    const againUs = median(hot) * 1000;
    rows.push({ subject, afterSleepUs, againUs, ratio: afterSleepUs / againUs });
  }
  return rows;
}

if (process.argv[1]?.endsWith('wake-penalty.ts')) {
  for (const r of wakePenalty()) {
    console.log(`${r.subject.padEnd(30)} after a 3 ms sleep ${r.afterSleepUs.toFixed(1).padStart(6)} µs, run again ${r.againUs.toFixed(1).padStart(5)} µs: ${r.ratio.toFixed(1)}×`);
  }
}
