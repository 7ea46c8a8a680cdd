// The CLI starts fast because a command's heavy modules load only when that command runs: what `repairlab --help`
// loads is what worker/cli/main.ts reaches through static imports. This walks that graph (esbuild's metafile,
// static edges only) and checks the engine, its schemas and the runner are not on it. `repairlab bench cli-startup`
// prints the time it saves.
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

async function staticImportsOf(entry: string): Promise<Set<string>> {
  const result = await build({ entryPoints: [entry], bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'silent' });
  const inputs = result.metafile.inputs;
  const reached = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (reached.has(file)) continue;
    reached.add(file);
    for (const edge of inputs[file]?.imports ?? []) if (edge.kind === 'import-statement' && !edge.external) queue.push(edge.path);
  }
  return reached;
}

describe('CLI start-up', () => {
  it('loads neither the engine, nor the contracts (zod), nor the runner before a command runs', async () => {
    const reached = await staticImportsOf('worker/cli/main.ts');
    expect(reached.size).toBeGreaterThan(3); // the walk found main.ts's own helpers
    expect([...reached].filter((f) => /^worker\/(lab|bugs\/engine|runs\/run-manager)\.ts$|^worker\/contracts\/|^runner\/|^worker\/agent\/loop\.ts$/.test(f))).toEqual([]);
  });
});
