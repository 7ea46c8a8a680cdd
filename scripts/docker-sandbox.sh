#!/usr/bin/env bash
# Makes the runner's docker sandbox backend testable here: a Docker engine that answers and the sandbox image
# (runner/Dockerfile, tagged as runner/src/sandbox.ts DOCKER_IMAGE). `npm test` runs the hostile and isolation tests
# on it as well as on bubblewrap. Safe to run again: it only does what is missing.
#
# On Debian as root, with no engine running, it installs docker.io and debootstrap, starts dockerd without touching
# host networking (no iptables, no bridge; containers run --network none anyway), and builds the images offline from
# Debian's mirror (no Docker Hub here): a minbase bookworm root file system imported as debian:bookworm-slim, then
# runner/Dockerfile. The engine's data stays in /var/lib/repairlab-docker, so later runs reuse the images (~3 min the
# first time, seconds after).
#
# Exit status: 0 when the backend is ready; 3 when it cannot be had on this machine (said why on stderr), so the caller
# can report the docker tests as not run; anything else is a failure.
set -uo pipefail
cd "$(dirname "$0")/.."

IMAGE=$(sed -n "s/^export const DOCKER_IMAGE = '\(.*\)';$/\1/p" runner/src/sandbox.ts)
DATA=/var/lib/repairlab-docker
unavailable() { echo "docker-sandbox: $1" >&2; exit 3; }
engine_answers() { docker info --format '{{.ServerVersion}}' >/dev/null 2>&1; }

if ! engine_answers; then
  [ "$(id -u)" = 0 ] || unavailable "no Docker engine answers, and starting one needs root"
  if ! command -v dockerd >/dev/null 2>&1 || ! command -v debootstrap >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 || unavailable "no Docker engine answers, and there is no apt-get to install docker.io"
    echo "docker-sandbox: installing docker.io and debootstrap"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io debootstrap >/dev/null || unavailable "apt-get could not install docker.io"
  fi
  mkdir -p "$DATA" /var/run/repairlab-docker
  echo "docker-sandbox: starting dockerd (data in $DATA, log in $DATA.log)"
  nohup dockerd --data-root "$DATA" --exec-root /var/run/repairlab-docker --pidfile /var/run/repairlab-dockerd.pid \
    --iptables=false --ip6tables=false --bridge=none --ip-forward=false --ip-masq=false \
    -H unix:///var/run/docker.sock >"$DATA.log" 2>&1 &
  for _ in $(seq 1 30); do engine_answers && break; sleep 1; done
  engine_answers || unavailable "dockerd did not answer within 30 s (see $DATA.log)"
fi

if ! docker image inspect "$IMAGE" >/dev/null 2>&1; then
  if ! docker image inspect debian:bookworm-slim >/dev/null 2>&1; then
    command -v debootstrap >/dev/null 2>&1 || unavailable "the base image debian:bookworm-slim is missing and debootstrap is not installed"
    mirror=$(sed -n 's/^URIs: *\(http[^ ]*debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
    mirror=${mirror:-http://deb.debian.org/debian}
    rootfs=$(mktemp -d)
    echo "docker-sandbox: building debian:bookworm-slim from $mirror"
    debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$rootfs.log" 2>&1 || unavailable "debootstrap from $mirror failed (see $rootfs.log)"
    # the image's apt reads the same mirror (runner/Dockerfile installs the JDK and the Java libraries from it)
    echo "deb $mirror bookworm main" >"$rootfs/etc/apt/sources.list"
    tar -C "$rootfs" -c . | docker import - debian:bookworm-slim >/dev/null || exit 1
    rm -rf "$rootfs" "$rootfs.log"
  fi
  echo "docker-sandbox: building $IMAGE from runner/Dockerfile"
  # --network host: with --bridge=none a build container has no network, and apt inside it needs the mirror
  docker build -q --network host -t "$IMAGE" runner/ >/dev/null || exit 1
fi
echo "docker-sandbox: ready ($IMAGE on Docker $(docker info --format '{{.ServerVersion}}'))"
