// CLI start-up: `repairlab --help` against its floor — Node starting the same tsx loader on an empty module — in the
// same run, interleaved, medians. What is above the floor is the CLI's own module loading; the engine, zod and the
// runner are loaded by the commands that use them, not at start (test/unit/cli/start-up-imports.test.ts).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHECKOUT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliStartup {
  rounds: number;
  /** `node bin/repairlab.mjs --help`, median */
  help_ms: number;
  /** `node bin/repairlab.mjs stats --help` (a subcommand's help), median */
  subcommand_help_ms: number;
  /** node + the tsx loader + an empty TypeScript module, median */
  floor_ms: number;
  /** help_ms / floor_ms */
  ratio: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

function timed(args: string[]): number {
  const t = performance.now();
  execFileSync(process.execPath, args, { cwd: CHECKOUT, stdio: 'ignore' });
  return performance.now() - t;
}

export function benchCliStartup(rounds = 7): CliStartup {
  // inside the checkout, so the floor resolves tsx from node_modules exactly as bin/repairlab.mjs does
  mkdirSync(join(CHECKOUT, '.cache'), { recursive: true });
  const dir = mkdtempSync(join(CHECKOUT, '.cache', 'startup-'));
  try {
    const empty = join(dir, 'empty.ts');
    writeFileSync(empty, 'export {};\n');
    const floorEntry = join(dir, 'floor.mjs');
    writeFileSync(floorEntry, `import { register } from 'tsx/esm/api';\nregister();\nawait import(${JSON.stringify(empty)});\n`);
    const floorArgs = [floorEntry];
    const help: number[] = [];
    const sub: number[] = [];
    const floor: number[] = [];
    timed(['bin/repairlab.mjs', '--help']); // warm the transpile cache once, as any second start has it
    for (let i = 0; i < rounds; i++) {
      help.push(timed(['bin/repairlab.mjs', '--help']));
      sub.push(timed(['bin/repairlab.mjs', 'stats', '--help']));
      floor.push(timed(floorArgs));
    }
    const r = { rounds, help_ms: median(help), subcommand_help_ms: median(sub), floor_ms: median(floor), ratio: 0 };
    r.ratio = r.help_ms / r.floor_ms;
    return r;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function cliStartupText(r: CliStartup): string {
  return `${r.rounds} rounds (medians): repairlab --help ${r.help_ms.toFixed(0)} ms, stats --help ${r.subcommand_help_ms.toFixed(0)} ms, ` +
    `node + tsx on an empty module ${r.floor_ms.toFixed(0)} ms: ${r.ratio.toFixed(2)}× the floor`;
}
