#!/usr/bin/env bash
# Serve the playground on http://127.0.0.1:8080 (installing missing tools first).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/install-tools.sh"
cd "$kp_root"
exec trunk serve --release --offline --address 127.0.0.1 --port "${PORT:-8080}"
