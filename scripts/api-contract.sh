#!/usr/bin/env bash
# The API contract check of `make test`: schemathesis generates requests from the OpenAPI
# document the server serves (valid ones and, in its negative mode, invalid ones) and fails on
# any 5xx, any answer whose body, content type or headers do not match the document, and any
# status the document does not list for that operation.
#
# It runs against a server of its own (a fresh SQLite database with the demo pilot), so the
# requests it makes (new pilots, uploads, withdrawals, deletions) touch nothing else. The
# operations run three times: with any ids, then on the demo pilot (so answers with real
# evidence are checked against their schemas too), and last the destructive ones (archive,
# delete), once everything else has been exercised on the intact demo pilot. Bounded: SCHEMATHESIS_EXAMPLES cases per
# operation (default 25) and SCHEMATHESIS_SECONDS per pass (default 60); the seed is fixed so
# a failure reproduces (SCHEMATHESIS_SEED to vary it).
#
# A fourth pass checks the other direction (positive_data_acceptance): every request the
# document admits is accepted, so the document states each parameter's requirements (required
# fields, lengths, patterns, ranges). It leaves out the operations whose acceptance no schema
# can state: uploads and previews (whether a file reads depends on its bytes), the
# recommendation and the prediction (they depend on the pilot's evidence and plan, and
# `predict` takes exactly one of two query parameters, which OpenAPI 3 cannot express), and
# the destructive ones.
#
# Usage: scripts/api-contract.sh [server binary]   (default: target/debug/server)
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$ROOT"
server="${1:-$ROOT/target/debug/server}"
[ -x "$server" ] || die "no server binary at $server (cargo build -p server)"
ensure_schemathesis

data="$(mktemp -d)"
port="${CONTRACT_PORT:-3124}"
cleanup() { stop_demo_server; rm -rf "$data"; }
trap cleanup EXIT
start_demo_server "$server" "$data" "$port" RUST_LOG=warn
token="$(DATA_DIR="$data" "$server" token create --email admin@pilotdesk.local --name schemathesis --days 1 | tail -n 1)"
[[ "$token" == pd_* ]] || die "could not create an API token for the contract check"

# The demo pilot, so that the operations on one pilot are exercised on real evidence too.
demo_config="$data/demo-pilot.toml"
printf '[parameters]\n"path.id" = 1\n"path.evidence_id" = 1\n' >"$demo_config"

run() {
  local config=()
  if [ "${1:-}" = "--demo-pilot" ]; then config=(--config-file "$demo_config"); shift; fi
  # (--positive, when given, follows --demo-pilot)
  local checks="not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance"
  if [ "${1:-}" = "--positive" ]; then checks="not_a_server_error,positive_data_acceptance"; shift; fi
  "$TOOLS/venv/bin/schemathesis" "${config[@]}" run "http://127.0.0.1:$port/api/v1/openapi.json" \
    --header "Authorization: Bearer $token" \
    --checks "$checks" \
    --phases examples,coverage,fuzzing \
    --max-examples "${SCHEMATHESIS_EXAMPLES:-25}" \
    --max-time "${SCHEMATHESIS_SECONDS:-60}" \
    --seed "${SCHEMATHESIS_SEED:-20261202}" \
    --request-timeout 60 \
    --workers 1 \
    --suppress-health-check all \
    --no-color \
    "$@"
}
status=0
say "API contract (schemathesis $SCHEMATHESIS_VERSION): every operation but archive and delete, any id"
run --exclude-path-regex '/archive$' --exclude-method DELETE || status=1
say "API contract: the same on the demo pilot"
run --demo-pilot --exclude-path-regex '/archive$' --exclude-method DELETE || status=1
say "API contract: every request the document admits is accepted"
# (Posting gateway records needs a pilot's ingest token, not the API token this check sends, and
# a metrics source a target that answers: the HTTP suite's live and metrics tests do both.)
run --demo-pilot --positive \
  --exclude-path-regex '/evidence$|/evidence/preview$|/recommendation$|/predict$|/archive$|/gateway/records$|/metrics-source$' \
  --exclude-method DELETE || status=1
say "API contract: archive and delete"
run --include-path-regex '/archive$|^/api/v1/pilots/\{id\}$' || status=1
if grep -q "panicked" "$data/server.log"; then
  grep -B2 -A5 "panicked" "$data/server.log" >&2
  status=1
fi
[ "$status" = 0 ] || die "the server and its OpenAPI document disagree (see above)"
echo "API contract: the server answers as its OpenAPI document says"
