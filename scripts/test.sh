#!/usr/bin/env bash
# `make test`: the whole suite.
#   1. formatting and clippy (SKIP_LINT=1 skips them)
#   2. engine and app unit tests, store and HTTP tests on SQLite
#   3. the store and HTTP tests again on PostgreSQL when TEST_DATABASE_URL is set
#   4. the API contract: schemathesis against the running server and its OpenAPI document
#   5. the live gateway feed: a real LiteLLM proxy posting to the running server
#   6. the browser tests: Playwright driving Debian's Chromium against the real server
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$ROOT"
unset DATABASE_URL DEMO
log="$(mktemp)"
# Runs a test stage, keeping its output for the summary line at the end.
stage() { "$@" 2>&1 | tee -a "$log"; }

ensure_wasm_target
ensure_wasm_bindgen
ensure_npm_packages
ensure_chromium
ensure_schemathesis
ensure_litellm

if [ "${SKIP_LINT:-0}" != "1" ]; then
  say "Checking formatting and lints"
  cargo fmt --all --check
  cargo clippy --workspace --all-targets -- -D warnings
  # The browser build has code of its own (`hydrate`): lint it here, so that an error there
  # fails in minutes rather than at the bundle build before the browser tests.
  cargo clippy -p app --lib --target wasm32-unknown-unknown --no-default-features --features hydrate \
    --target-dir target/front -- -D warnings
fi

say "Unit, store and HTTP tests on SQLite"
stage env -u TEST_DATABASE_URL cargo test --workspace

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  say "Store and HTTP tests on PostgreSQL ($TEST_DATABASE_URL)"
  stage cargo test -p server --test api
else
  say "TEST_DATABASE_URL is not set: skipping the PostgreSQL run"
fi

# The API contract runs against the debug server `cargo test` built above for the CLI tests.
[ -x "$ROOT/target/debug/server" ] || build_server debug
say "API contract (schemathesis against /api/v1/openapi.json)"
stage "$ROOT/scripts/api-contract.sh" "$ROOT/target/debug/server"

say "Live gateway feed (a real LiteLLM proxy posting to the server)"
stage "$ROOT/scripts/live-gateway.sh" "$ROOT/target/debug/server"

# The browser tests run the bundle users get (optimised, compressed) against the debug server
# binary `cargo test` built above for the CLI tests (target/debug/server, current after that
# stage); a plain `cargo build` here would recompile a dozen crates for other feature choices.
build_site release
[ -x "$ROOT/target/debug/server" ] || build_server debug

say "Browser tests (Playwright + $(chromium_path))"
data="$(mktemp -d)"
port="${E2E_PORT:-3123}"
cleanup() { rm -f "$log"; stop_demo_server; rm -rf "$data"; }
trap cleanup EXIT
start_demo_server "$ROOT/target/debug/server" "$data" "$port"
admin_password="$(demo_admin_password "$data")"
(
  cd "$ROOT/end2end"
  BASE_URL="http://127.0.0.1:$port" ADMIN_PASSWORD="$admin_password" CHROMIUM_PATH="$(chromium_path)" \
    stage npx playwright test
)

passed="$(sed -n -e 's/^test result: ok\. \([0-9]*\) passed.*/\1/p' -e 's/^ *\([0-9]*\) passed (.*/\1/p' "$log" |
  awk '{ n += $1 } END { print n + 0 }')"
rm -f "$log"
echo "summary: $passed passed, 0 failed"
