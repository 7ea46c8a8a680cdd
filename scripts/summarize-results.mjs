// Adds up what every stage of the test command reported and prints the closing line
// `N passed, N failed`. Checks (type check, lint, build) count as one test each; vitest and
// Playwright contribute their own test counts. A stage that crashed without a report counts as failed.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
const lines = [];

for (const f of readdirSync(dir).filter((f) => f.endsWith('.check')).sort()) {
  const name = f.replace(/\.check$/, '');
  const ok = readFileSync(join(dir, f), 'utf8').trim() === 'ok';
  if (name === 'vitest' || name === 'vitest-docker' || name === 'vitest-docker-pool' || name === 'e2e') continue; // counted from their reports below
  if (ok) passed++;
  else failed++;
  lines.push(`${name}: ${ok ? 'ok' : 'FAILED'}`);
}

function count(name, file, read) {
  const path = join(dir, file);
  const crashed = existsSync(join(dir, `${name}.check`)) && readFileSync(join(dir, `${name}.check`), 'utf8').trim() !== 'ok';
  if (!existsSync(path)) {
    failed++;
    lines.push(`${name}: no report (stage crashed)`);
    return;
  }
  const { p, f } = read(JSON.parse(readFileSync(path, 'utf8')));
  passed += p;
  failed += f;
  if (crashed && f === 0) failed++; // the runner exited non-zero without a failing test: count that
  lines.push(`${name}: ${p} passed, ${f} failed`);
}

count('vitest', 'vitest.json', (r) => ({ p: r.numPassedTests, f: r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0) }));
if (existsSync(join(dir, 'vitest-docker.skipped'))) {
  lines.push(`vitest-docker: NOT RUN — the docker sandbox backend was not tested: ${readFileSync(join(dir, 'vitest-docker.skipped'), 'utf8').trim()}`);
} else {
  count('vitest-docker', 'vitest-docker.json', (r) => ({ p: r.numPassedTests, f: r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0) }));
}
if (existsSync(join(dir, 'vitest-docker-pool.skipped'))) {
  lines.push(`vitest-docker-pool: NOT RUN — the runner pool on Docker was not tested: ${readFileSync(join(dir, 'vitest-docker-pool.skipped'), 'utf8').trim()}`);
} else {
  count('vitest-docker-pool', 'vitest-docker-pool.json', (r) => ({ p: r.numPassedTests, f: r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0) }));
}
if (existsSync(join(dir, 'vitest-slurm.skipped'))) {
  lines.push(`vitest-slurm: NOT RUN — the runner pool on Slurm was not tested: ${readFileSync(join(dir, 'vitest-slurm.skipped'), 'utf8').trim()}`);
} else {
  count('vitest-slurm', 'vitest-slurm.json', (r) => ({ p: r.numPassedTests, f: r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0) }));
}
count('e2e', 'playwright.json', (r) => ({ p: r.stats.expected + (r.stats.flaky ?? 0), f: r.stats.unexpected }));

console.log('\n' + lines.join('\n'));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
