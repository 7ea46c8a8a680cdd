#!/usr/bin/env bash
# Builds the runner *service* image (runner/service.Dockerfile) offline, the way scripts/docker-sandbox.sh builds the
# sandbox image: it first runs that script (a Docker engine that answers, the debian:bookworm-slim base made with
# debootstrap), then lays out the build context — this machine's Node binary (Debian bookworm's nodejs is 18, the
# runner needs ≥ 20.19), runner/src/main.ts bundled with esbuild, the harness sources — and builds with
# `--network host` so apt reaches the Debian mirror. The tag is the hash of that context, so an unchanged runner
# reuses its image (seconds) and a changed one gets a new image.
#
# Last line on stdout: RUNNER_IMAGE=repairlab-runner-service:<hash>
# Exit status: 0 ready; 3 when no Docker engine can be had here (said why on stderr); anything else a failure.
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/docker-sandbox.sh >&2
rc=$?
[ $rc = 0 ] || exit $rc

node_bin=$(command -v node) || { echo "docker-runner-image: no node on PATH to copy into the image" >&2; exit 1; }
ctx=$(mktemp -d)
trap 'rm -rf "$ctx"' EXIT
mkdir -p "$ctx/app/runner/dist"
cp "$(readlink -f "$node_bin")" "$ctx/node"
npx esbuild runner/src/main.ts --bundle --platform=node --format=esm --target=node20 --log-level=warning \
  --outfile="$ctx/app/runner/dist/runner.mjs" \
  --banner:js="import { createRequire as __rlCreateRequire } from 'node:module'; const require = __rlCreateRequire(import.meta.url);" || exit 1
cp node_modules/@isomorphic-git/cors-proxy/index.html "$ctx/app/runner/dist/index.html"
cp -r runner/java "$ctx/app/runner/java"
cp runner/service.Dockerfile "$ctx/Dockerfile"
hash=$(cd "$ctx" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
image="repairlab-runner-service:$hash"
if ! docker image inspect "$image" >/dev/null 2>&1; then
  echo "docker-runner-image: building $image from runner/service.Dockerfile" >&2
  docker build -q --network host -t "$image" "$ctx" >/dev/null || exit 1
fi
echo "docker-runner-image: ready ($image)" >&2
echo "RUNNER_IMAGE=$image"
