#!/usr/bin/env bash
# Serve the playground on http://127.0.0.1:8080 (installing missing tools first).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/install-tools.sh"
cd "$kp_root"
# --no-autoreload: Trunk fills its live-reload script in when serving, after the build,
# so the Content-Security-Policy's hash of it (scripts/csp-hash.mjs) would not match and
# the script would be blocked. Reload by hand after a rebuild.
exec trunk serve --release --offline --no-autoreload --address 127.0.0.1 --port "${PORT:-8080}"
