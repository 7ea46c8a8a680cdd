# The runner *service* image: one runner (runner/src/main.ts, bundled into one file) with its bubblewrap sandbox inside,
# for `repairlab pool up --docker N`, a Kubernetes pod (`pool manifests --kubernetes --image …`) or any machine with
# Docker. Not to be confused with runner/Dockerfile, the *sandbox* image the runner's `--sandbox docker` backend execs
# into. Built offline by scripts/docker-runner-image.sh, which lays out the context:
#
#   node                         the build machine's Node binary (Debian bookworm's nodejs is 18; the runner needs ≥ 20.19)
#   app/runner/dist/runner.mjs   runner/src/main.ts bundled with esbuild (zod, fflate, the CORS proxy and worker/contracts in it)
#   app/runner/dist/index.html   the CORS proxy's landing page, which it reads beside its code
#   app/runner/java/             the harness sources, compiled by the runner into its data directory on first use
#
# The token comes from a secret file (--token-file, e.g. a read-only mount or a Kubernetes Secret), never from the
# environment or the command line. /v1/health says which isolation holds: bwrap needs user namespaces, which Docker's
# default seccomp and capability set refuse; `pool up --docker` runs it with SYS_ADMIN and seccomp unconfined
# (docs/deploy.md says what that allows and the fallback).
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends openjdk-17-jdk-headless junit4 junit5 libhamcrest-java libjacoco-java \
      libeclipse-jdt-core-java bubblewrap util-linux libstdc++6 \
 && rm -rf /var/lib/apt/lists/*
COPY node /usr/local/bin/node
COPY app /app
ENV REPAIRLAB_RUNNER_HOST=0.0.0.0 REPAIRLAB_RUNNER_PORT=8765 REPAIRLAB_RUNNER_DATA_DIR=/data REPAIRLAB_RUNNER_SANDBOX=bwrap
EXPOSE 8765
WORKDIR /data
ENTRYPOINT ["node", "/app/runner/dist/runner.mjs"]
