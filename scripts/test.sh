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

# The hostile and isolation tests again on the docker sandbox backend (runner/src/sandbox.ts): the verdicts must not
# depend on the backend. scripts/docker-sandbox.sh gets an engine and the image where it can; where it cannot (exit 3:
# not root, no apt), the closing lines say the docker backend was not tested, and why.
DOCKER_TESTS=()
for t in hostile hostile-baseline hostile-globals containment test-edits project-security-manager environment-faithful; do DOCKER_TESTS+=("test/integration/runner/$t.test.ts"); done
echo "=== docker-sandbox"
bash scripts/docker-sandbox.sh 2>"$results/docker-sandbox.err"
case $? in
  0) step vitest-docker env REPAIRLAB_TEST_SANDBOX=docker npx vitest run "${DOCKER_TESTS[@]}" \
       --reporter=default --reporter=json --outputFile="$results/vitest-docker.json" ;;
  3) cat "$results/docker-sandbox.err" >&2; mv "$results/docker-sandbox.err" "$results/vitest-docker.skipped" ;;
  *) cat "$results/docker-sandbox.err" >&2; echo "failed" > "$results/vitest-docker.check"; status=1 ;;
esac
step build npx vite build --logLevel warn
step e2e npx playwright test
node scripts/summarize-results.mjs "$results" || status=1
exit $status
