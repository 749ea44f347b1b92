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
DATA_DIR="$data" LEPTOS_SITE_ADDR="127.0.0.1:$port" LEPTOS_SITE_ROOT="$ROOT/target/site" DEMO=1 \
  CHROMIUM_PATH="$(chromium_path)" "$ROOT/target/debug/server" >"$data/server.log" 2>&1 &
server_pid=$!
cleanup() { kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; rm -rf "$data"; }
trap cleanup EXIT
for _ in $(seq 1 120); do
  curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$data/server.log"; die "the server did not start"; }
  sleep 0.5
done
admin_password="$(sed -n 's/.*password: *\([A-Za-z0-9]\{20\}\).*/\1/p' "$data/server.log" | head -n 1)"
[ -n "$admin_password" ] || { cat "$data/server.log"; die "no admin password in the server's first-start output"; }
cd "$ROOT/end2end"
BASE_URL="http://127.0.0.1:$port" ADMIN_PASSWORD="$admin_password" CHROMIUM_PATH="$(chromium_path)" \
  npx playwright test "$@"
