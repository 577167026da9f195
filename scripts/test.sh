#!/usr/bin/env bash
# Run every test (installing missing tools, Chromium included, first):
# formatting, clippy, the module graph (no cycle), the engine's and the app's Rust tests, real kubectl against
# kubeplay-cli serve (when kubectl is on PATH), the bounded-resources run, the Python and JavaScript clients against serve, the release build with
# its sizes, and the browser tests in headless Chromium.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/install-tools.sh" --browser
cd "$kp_root"
# One build from a fresh clone gains nothing from incremental state, which costs disk
# (several GB across the test binaries) and time; a developer may set it back.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

step() { printf '\n== %s\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy -D warnings"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "the module graph runs one way (scripts/code-shape.mjs)"
# A report of the largest files and longest functions, and a failure on any module or
# file cycle: the architecture docs/architecture.md promises.
node scripts/code-shape.mjs --check --files 10 --fns 10

step "cargo test (engine and app, native)"
cargo test --workspace --locked

step "real kubectl against kubeplay-cli serve (cli/tests/real_kubectl.rs)"
# The same scenario through real kubectl and through kubeplay's own, compared command
# by command. It needs a real kubectl; without one it is skipped, and says so.
if command -v kubectl >/dev/null 2>&1; then
  cargo test --locked -p kubeplay-cli --test real_kubectl -- --ignored --nocapture
  # A machine whose kubectl picks its version by the server's keeps the others beside
  # it: v1.32, the version the differential suite was written against, runs too.
  kubectl_dir="$(dirname "$(readlink -f "$(command -v kubectl)")")"
  if [ -x "$kubectl_dir/kubectl.1.32" ]; then
    KUBECTL="$kubectl_dir/kubectl.1.32" \
      cargo test --locked -p kubeplay-cli --test real_kubectl -- --ignored --nocapture
  fi
else
  echo "skipped: no kubectl on PATH, so real kubectl was not compared with kubeplay's"
fi

step "bounded resources under ulimit -v (scripts/bounds.mjs)"
# The worst link, record and scenario within the bounds, a year of a minutely CronJob,
# and serve under load, each in its own address-space limit: a failure is a process
# killed, aborted or answering wrongly. Times are printed, never asserted.
cargo build --release --locked -p kubeplay-cli
node scripts/bounds.mjs

step "the official Python client against kubeplay-cli serve (scripts/python-client.sh)"
# kubernetes 33.1.0 from the package registry, in a virtual environment under target/.
bash scripts/python-client.sh target/release/kubeplay-cli

step "the official JavaScript client against kubeplay-cli serve (scripts/node-client.sh)"
# @kubernetes/client-node 1.4.0 from its lock file, installed under target/.
bash scripts/node-client.sh target/release/kubeplay-cli

step "trunk build --release"
trunk build --release --offline
wasm="$(ls dist/*_bg.wasm)"
js="$(ls dist/kubeplay-*.js)"
css="$(ls dist/style-*.css)"
for f in "$wasm" "$js" "$css"; do
  printf 'size: %-42s %8d bytes raw %8d bytes gzip\n' "$(basename "$f")" "$(wc -c < "$f")" "$(gzip -9 -c "$f" | wc -c)"
done

step "browser tests (headless Chromium)"
node --test tests/browser/
