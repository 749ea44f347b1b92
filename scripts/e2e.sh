#!/usr/bin/env bash
# The browser tests alone: builds the optimised site and the debug server, starts the server on a fresh data
# folder with the demo pilot, and runs Playwright in Debian's Chromium. Arguments go to
# `playwright test` (e.g. `scripts/e2e.sh quality` runs one spec file).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$ROOT"
unset DATABASE_URL DEMO

ensure_wasm_target
ensure_wasm_bindgen
ensure_npm_packages
ensure_chromium

if [ "${SKIP_BUILD:-0}" != "1" ]; then
  build_site release
  build_server debug
fi

say "Browser tests (Playwright + $(chromium_path))"
data="$(mktemp -d)"
port="${E2E_PORT:-3123}"
cleanup() { stop_demo_server; rm -rf "$data"; }
trap cleanup EXIT
start_demo_server "$ROOT/target/debug/server" "$data" "$port" CHROMIUM_PATH="$(chromium_path)"
admin_password="$(demo_admin_password "$data")"
cd "$ROOT/end2end"
BASE_URL="http://127.0.0.1:$port" ADMIN_PASSWORD="$admin_password" CHROMIUM_PATH="$(chromium_path)" \
  npx playwright test "$@"
