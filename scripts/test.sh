#!/usr/bin/env bash
# Sets everything up and runs every test: type check, lint, vitest (unit + integration, including the
# runner with real javac/JUnit/bubblewrap and the benchmark check), the app build, and Playwright e2e in
# Debian's Chromium. Ends with one line `N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit 1

results=.cache/test-results
rm -rf "$results" && mkdir -p "$results"
status=0

step() { # name, command...
  local name=$1; shift
  echo "=== $name"
  if "$@"; then echo "ok" > "$results/$name.check"; else echo "failed" > "$results/$name.check"; status=1; fi
}

step typecheck npx tsc --noEmit -p tsconfig.json
step lint npx eslint . --max-warnings=-1
step vitest npx vitest run --reporter=default --reporter=json --outputFile="$results/vitest.json"
step build npx vite build --logLevel warn
step e2e npx playwright test
node scripts/summarize-results.mjs "$results" || status=1
exit $status
