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
for t in hostile hostile-baseline hostile-globals containment test-edits project-security-manager environment-faithful linked-jars; do DOCKER_TESTS+=("test/integration/runner/$t.test.ts"); done
echo "=== docker-sandbox"
bash scripts/docker-sandbox.sh 2>"$results/docker-sandbox.err"
case $? in
  0) step vitest-docker env REPAIRLAB_TEST_SANDBOX=docker npx vitest run "${DOCKER_TESTS[@]}" \
       --reporter=default --reporter=json --outputFile="$results/vitest-docker.json"
     # the runner pool on Docker (test/integration/pool/pool-docker.test.ts): two runner service containers
     # (scripts/docker-runner-image.sh builds the image offline, cached by its inputs' hash), one killed mid-cell
     step vitest-docker-pool env REPAIRLAB_TEST_DOCKER_POOL=1 npx vitest run test/integration/pool/pool-docker.test.ts \
       --reporter=default --reporter=json --outputFile="$results/vitest-docker-pool.json" ;;
  3) cat "$results/docker-sandbox.err" >&2; cp "$results/docker-sandbox.err" "$results/vitest-docker-pool.skipped"
     mv "$results/docker-sandbox.err" "$results/vitest-docker.skipped" ;;
  *) cat "$results/docker-sandbox.err" >&2; echo "failed" > "$results/vitest-docker.check"; status=1 ;;
esac
# The runner pool on Slurm (test/integration/pool/pool-slurm.test.ts): scripts/slurm-cluster.sh brings up a
# single-node cluster where it can (its last line is SLURM_CONF=…); where it cannot (exit 3: not root, no apt), the
# closing lines say the Slurm pool was not tested, and why. One test, about 3 minutes.
echo "=== slurm-cluster"
bash scripts/slurm-cluster.sh >"$results/slurm-cluster.out" 2>"$results/slurm-cluster.err"
slurm_status=$?
slurm_conf=$(sed -n 's/^SLURM_CONF=//p' "$results/slurm-cluster.out")
case $slurm_status in
  0) step vitest-slurm env SLURM_CONF="$slurm_conf" REPAIRLAB_TEST_SLURM=1 npx vitest run test/integration/pool/pool-slurm.test.ts \
       --reporter=default --reporter=json --outputFile="$results/vitest-slurm.json" ;;
  3) cat "$results/slurm-cluster.err" >&2; mv "$results/slurm-cluster.err" "$results/vitest-slurm.skipped" ;;
  *) cat "$results/slurm-cluster.err" >&2; echo "failed" > "$results/vitest-slurm.check"; status=1 ;;
esac
step build npx vite build --logLevel warn
step e2e npx playwright test
node scripts/summarize-results.mjs "$results" || status=1
exit $status
