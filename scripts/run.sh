#!/usr/bin/env bash
# `make run`: install what is missing, build, and serve on http://127.0.0.1:3000.
# RELEASE=1 builds optimised (slower to build, smaller wasm, faster pages).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$ROOT"
mode=debug
[ "${RELEASE:-0}" = "1" ] && mode=release
ensure_wasm_target
ensure_wasm_bindgen
[ "$mode" = "release" ] && ensure_npm_packages
build_site "$mode"
build_server "$mode"
export LEPTOS_SITE_ROOT="$ROOT/target/site"
say "Starting Pilot Desk (Ctrl-C stops it)"
exec "$ROOT/target/$mode/server" "$@"
