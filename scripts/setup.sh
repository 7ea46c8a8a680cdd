#!/usr/bin/env bash
# Installs what RepairLab needs and is missing: npm packages (from package-lock.json) and, on Debian
# as root, the system packages (Chromium for the e2e tests, JUnit 4/5, hamcrest, JaCoCo, bubblewrap, and Python
# Jinja2 for the prompt-template parity test).
# Safe to run again: it only installs what is absent.
set -euo pipefail
cd "$(dirname "$0")/.."

need() { command -v "$1" >/dev/null 2>&1 || { echo "setup: '$1' not found — $2" >&2; exit 1; }; }
need node "install Node.js >= 20.19"
need npm "install npm (comes with Node.js)"
need git "install git"
need java "install a JDK >= 17 (e.g. apt-get install openjdk-17-jdk-headless)"
need javac "install a JDK >= 17, not only a JRE"

node -e 'const [a,b]=process.versions.node.split(".").map(Number); if (a<20||(a===20&&b<19)) { console.error("setup: Node >= 20.19 is required, found "+process.version); process.exit(1) }'
jv=$(javac -version 2>&1 | sed -E 's/[^0-9]*([0-9]+).*/\1/')
if [ "${jv:-0}" -lt 17 ]; then echo "setup: JDK >= 17 is required, found javac $jv" >&2; exit 1; fi

# System packages: only on Debian/Ubuntu as root; elsewhere say what is missing.
sys_pkgs=(chromium junit4 junit5 libhamcrest-java libjacoco-java ecj bubblewrap python3-jinja2 python3-scipy python3-statsmodels)
missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for p in "${sys_pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "setup: missing system packages: ${missing[*]} (install them with your package manager; tests that need them will fail)" >&2
  fi
fi

# npm packages: reinstall only when package-lock.json changed since the last install.
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
stamp=node_modules/.repairlab-lock-sha256
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_hash" ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_hash" > "$stamp"
fi
