#!/usr/bin/env bash
# The official JavaScript client against kubeplay-cli serve (tests/clients/node/client_node.mjs):
# installs @kubernetes/client-node from its lock file under target/ (once), starts the server
# on a free port with its own kubeconfig, runs the checks, stops the server.
#
#   scripts/node-client.sh [path/to/kubeplay-cli]      (default: target/release/kubeplay-cli)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${1:-$root/target/release/kubeplay-cli}"
work="$root/target/node-clients"

mkdir -p "$work"
# The client and its lock beside the checks, so `import '@kubernetes/client-node'`
# resolves there; installed again only when the lock changed.
if ! cmp -s "$root/tests/clients/node/package-lock.json" "$work/package-lock.json" \
  || ! [ -d "$work/node_modules/@kubernetes/client-node" ]; then
  cp "$root/tests/clients/node/package.json" "$root/tests/clients/node/package-lock.json" "$work/"
  (cd "$work" && npm ci --no-audit --no-fund --loglevel=error)
fi
cp "$root/tests/clients/node/client_node.mjs" "$work/"

dir="$(mktemp -d)"
"$bin" serve --port 0 --kubeconfig "$dir/kubeconfig" >"$dir/out" 2>"$dir/err" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$dir"' EXIT
for _ in $(seq 300); do
  grep -q 'serving the Kubernetes API on' "$dir/out" 2>/dev/null && break
  sleep 0.1
done
grep -q 'serving the Kubernetes API on' "$dir/out" || { cat "$dir/out" "$dir/err"; echo "node-client: the server did not start"; exit 1; }
KUBECONFIG="$dir/kubeconfig" node "$work/client_node.mjs"
