#!/usr/bin/env bash
# Installs what building and testing kubeplay needs, skipping whatever is already there.
# Only package registries are used (crates.io, npm, Debian): Trunk never downloads tools.
#
#   scripts/install-tools.sh              wasm32 target, trunk, wasm-bindgen-cli, wasm-opt, crates
#   scripts/install-tools.sh --browser    the same, plus Debian's chromium for browser tests
#
# Source it (`. scripts/install-tools.sh`) to get the tools on PATH in the calling shell.
set -euo pipefail
kp_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$kp_root"

TRUNK_VERSION=0.21.14
# wasm-bindgen-cli must match the wasm-bindgen crate exactly: read it from Cargo.lock.
WASM_BINDGEN_VERSION="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)"
if [ -z "$WASM_BINDGEN_VERSION" ]; then
  echo "install-tools: cannot read the wasm-bindgen version from Cargo.lock" >&2
  exit 1
fi

export PATH="$HOME/.cargo/bin:$kp_root/node_modules/.bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true

say() { printf 'install-tools: %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# The learner's controller's sandbox (sandbox/) is QuickJS: C, compiled for wasm32 by
# clang, archived by llvm-ar (Debian's clang-14 and llvm-14).
kp_clang="$(command -v clang-14 || command -v clang || true)"
kp_ar="$(command -v llvm-ar-14 || command -v llvm-ar || true)"
if [ -z "$kp_clang" ] || [ -z "$kp_ar" ]; then
  say "installing Debian's clang-14 and llvm-14 (the controller sandbox's C, for wasm32)"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq --no-install-recommends clang-14 llvm-14 >/dev/null
  else
    sudo apt-get update -qq && sudo apt-get install -y -qq --no-install-recommends clang-14 llvm-14 >/dev/null
  fi
  kp_clang="$(command -v clang-14 || command -v clang)"
  kp_ar="$(command -v llvm-ar-14 || command -v llvm-ar)"
fi
export CC_wasm32_unknown_unknown="$kp_clang"
export AR_wasm32_unknown_unknown="$kp_ar"

if ! trunk --version 2>/dev/null | grep -q "trunk $TRUNK_VERSION"; then
  say "installing trunk $TRUNK_VERSION (about 7 minutes on 2 cores)"
  cargo install --locked trunk --version "$TRUNK_VERSION"
fi

if ! wasm-bindgen --version 2>/dev/null | grep -q "wasm-bindgen $WASM_BINDGEN_VERSION"; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 2 minutes)"
  # Not --locked: its own lockfile wants a webpki-roots the registry does not have.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

# wasm-opt (binaryen 132, which parses current Rust output) and playwright-core, from npm.
if [ ! -x node_modules/.bin/wasm-opt ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm packages (binaryen, playwright-core)"
  npm ci --no-audit --no-fund --loglevel=error
fi

# Crates ahead of time, so the offline Trunk build finds them.
cargo fetch --locked >/dev/null 2>&1 || cargo fetch --locked

if [ "${1:-}" = "--browser" ] && ! command -v chromium >/dev/null 2>&1; then
  say "installing Debian's chromium"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium >/dev/null
  else
    sudo apt-get update -qq && sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
  fi
fi
# Chinese glyphs for the screenshots of the zh page (without them Chromium draws boxes).
if [ "${1:-}" = "--browser" ] && command -v fc-list >/dev/null 2>&1 && ! fc-list | grep -qi 'cjk'; then
  say "installing Debian's fonts-noto-cjk"
  if [ "$(id -u)" = 0 ]; then
    apt-get install -y -qq --no-install-recommends fonts-noto-cjk >/dev/null || { apt-get update -qq && apt-get install -y -qq --no-install-recommends fonts-noto-cjk >/dev/null; }
  else
    sudo apt-get install -y -qq --no-install-recommends fonts-noto-cjk >/dev/null || true
  fi
fi
say "ready (trunk $TRUNK_VERSION, wasm-bindgen $WASM_BINDGEN_VERSION, $(wasm-opt --version), $("$kp_clang" --version | head -1))"
