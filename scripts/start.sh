#!/usr/bin/env bash
# Sets everything up, builds the app and starts RepairLab on the bundled demo benchmark:
# the app, the sandboxed runner and the keyless demo model endpoint, all on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
npx vite build --logLevel warn
exec node --import tsx scripts/start.ts
