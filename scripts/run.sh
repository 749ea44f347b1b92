#!/usr/bin/env bash
# `make run`: install what is missing, build optimised, and serve on http://127.0.0.1:3000.
# The browser bundle is optimised (wasm-opt -Oz), content-addressed and precompressed; the
# server is a release build. DEBUG=1 builds both unoptimised instead (quicker to build, a
# much larger bundle, slower pages).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$ROOT"
mode=release
[ "${DEBUG:-0}" = "1" ] && mode=debug
ensure_wasm_target
ensure_wasm_bindgen
ensure_npm_packages
build_site "$mode"
build_server "$mode"
export LEPTOS_SITE_ROOT="$ROOT/target/site"
say "Starting Pilot Desk (Ctrl-C stops it)"
exec "$ROOT/target/$mode/server" "$@"
