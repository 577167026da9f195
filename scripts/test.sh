#!/usr/bin/env bash
# Run every test (installing missing tools, Chromium included, first):
# formatting, clippy, the engine's and the app's Rust tests, the release build with
# its sizes, and the browser tests in headless Chromium.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/install-tools.sh" --browser
cd "$kp_root"

step() { printf '\n== %s\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy -D warnings"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "cargo test (engine and app, native)"
cargo test --workspace --locked

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
