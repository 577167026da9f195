#!/usr/bin/env bash
# The official Python client against kubeplay-cli serve (tests/clients/python_client.py, and
# the controller of tests/clients/podset_controller.py):
# makes a virtual environment with the client from the package registry (once), starts the
# server on a free port with its own kubeconfig, runs the checks, stops the server.
#
#   scripts/python-client.sh [path/to/kubeplay-cli]      (default: target/release/kubeplay-cli)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${1:-$root/target/release/kubeplay-cli}"
venv="$root/target/python-clients"

if ! [ -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import kubernetes' 2>/dev/null; then
  if ! python3 -m venv "$venv" 2>/dev/null; then
    # Debian keeps venv's pip in a package of its own.
    echo "python-client: installing Debian's python3-venv"
    if [ "$(id -u)" = 0 ]; then
      apt-get update -qq && apt-get install -y -qq --no-install-recommends python3 python3-venv >/dev/null
    else
      sudo apt-get update -qq && sudo apt-get install -y -qq --no-install-recommends python3 python3-venv >/dev/null
    fi
    python3 -m venv "$venv"
  fi
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$root/tests/clients/requirements.txt"
fi

dir="$(mktemp -d)"
"$bin" serve --port 0 --kubeconfig "$dir/kubeconfig" >"$dir/out" 2>"$dir/err" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$dir"' EXIT
for _ in $(seq 300); do
  grep -q 'serving the Kubernetes API on' "$dir/out" 2>/dev/null && break
  sleep 0.1
done
grep -q 'serving the Kubernetes API on' "$dir/out" || { cat "$dir/out" "$dir/err"; echo "python-client: the server did not start"; exit 1; }
KUBECONFIG="$dir/kubeconfig" "$venv/bin/python" "$root/tests/clients/python_client.py"
# The course's reconcile loop as a real controller of a custom resource.
KUBECONFIG="$dir/kubeconfig" "$venv/bin/python" "$root/tests/clients/podset_controller.py" --check
