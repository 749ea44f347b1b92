#!/usr/bin/env bash
# `make bench`: the performance figures the README quotes, measured on this machine in the
# optimised build `make run` serves. Prints a table; nothing here is a pass/fail test.
#
#   1. Pages under load: a release server with the demo pilot plus a 30,000-record AIPerf
#      per-request file (~110 MB) uploaded to it; `wrk` with 32 connections for BENCH_SECONDS
#      each against the pilot page, the load-test page, the verdict API and a static asset (the
#      stylesheet, Brotli) of the same server: p50/p99 latency and requests/s; then one client
#      on one kept-alive connection for the stylesheet and the pilot page (the server's time
#      per view), once the upload's own work (grading, the recommendation) is done.
#      BENCH_ONLY=pages runs this part alone.
#   2. `server demand` against pandas (bench/demand_pandas.py) on synthetic gateway logs of
#      500,000 and 1,000,000 requests: wall time and peak memory (/usr/bin/time), the median
#      of BENCH_REPEAT runs each (default 3). BENCH_ONLY=demand runs this part alone.
#   3. The production recommendation of the demo pilot (`server recommend --pilot 1 --json` on a
#      fresh demo database: every catalog candidate simulated with all copies up and one copy
#      down, nothing kept from an earlier run since each run is a new process): the median
#      wall time of BENCH_REPEAT runs. BENCH_ONLY=recommendation runs this part alone.
#   4. Live ingest: the demo server takes LiteLLM `generic_api` batches (the real 1.108.7 payload,
#      100 records a post, 8 kept-alive clients, open loop) at BENCH_INGEST_RATE records/s
#      (default 2000) for BENCH_SECONDS, from bench/ingest_load.py; meanwhile wrk reads the pilot
#      page on 4 connections. Prints the rate reached, the post latency p50/p99, the pilot page's
#      p99 idle and under ingest, and how long after the last post the day file held every
#      record. BENCH_ONLY=ingest runs this part alone.
#   5. First load: the pilot page opened in Chromium with an empty cache (bench/first_load.cjs),
#      unthrottled and as a laptop on a 9 Mbit/s link with a 4x slower CPU: bytes on the wire by
#      kind (wasm, script, HTML, stylesheet) and the time to interactive (the wasm module has
#      hydrated the page), the median of 5 loads. BENCH_ONLY=firstload runs this part alone.
#
# Installs what it needs when missing: Debian's wrk and time (as root), and pandas into
# .tools/bench-venv from PyPI.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$ROOT"
unset DATABASE_URL DEMO
SECONDS_EACH="${BENCH_SECONDS:-15}"
work="$(mktemp -d)"
cleanup() { stop_demo_server; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# Runs the command BENCH_REPEAT times; prints the median wall time (s) and its peak RSS (KB).
median_run() {
  local i
  for i in $(seq 1 "${BENCH_REPEAT:-3}"); do
    /usr/bin/time -f '%e %M' -o "$work/run.$i" "$@" >/dev/null
    cat "$work/run.$i"
  done | sort -n | awk '{ row[NR] = $0 } END { print row[int((NR + 1) / 2)] }'
}

# Starts the release server on a fresh demo data folder $1 at $base and signs in as its admin:
# sets `cookie` (the session) for the requests that follow.
start_signed_in() {
  start_demo_server "$ROOT/target/release/server" "$1" "$port" RUST_LOG=warn
  local password
  password="$(demo_admin_password "$1")"
  curl -fsS -c "$work/cookies" -o /dev/null -H "Origin: $base" \
    --data-urlencode "email=admin@pilotdesk.local" --data-urlencode "password=$password" "$base/api/login"
  cookie="$(awk '$6 == "pilotdesk_session" { print $7 }' "$work/cookies")"
  [ -n "$cookie" ] || die "could not sign in"
}

need_debian() {
  local missing=()
  for pkg in "$@"; do
    case "$pkg" in
      wrk) command -v wrk >/dev/null || missing+=(wrk) ;;
      time) [ -x /usr/bin/time ] || missing+=(time) ;;
    esac
  done
  [ "${#missing[@]}" -gt 0 ] || return 0
  [ "$(id -u)" = "0" ] || die "needed: apt-get install ${missing[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}
need_debian wrk time
venv="$TOOLS/bench-venv"
if ! "$venv/bin/python" -c "import pandas" 2>/dev/null; then
  say "Installing pandas into .tools/bench-venv (the demand benchmark's baseline)"
  python3 -m venv "$venv" && "$venv/bin/pip" install -q pandas
fi

only="${BENCH_ONLY:-all}" # `pages`, `demand`, `recommendation`, `ingest` or `firstload` alone
if [ "$only" = "all" ] || [ "$only" = "pages" ] || [ "$only" = "firstload" ]; then
  ensure_wasm_target
  ensure_wasm_bindgen
  ensure_npm_packages
  build_site release
fi
build_server release
if [ "$only" = "all" ] || [ "$only" = "demand" ]; then
  say "Building the synthetic log generator (release)"
  cargo build -q -p engine --release --example synthetic_gateway_log
fi

# ---- 1. pages under load ---------------------------------------------------------------------
if [ "$only" = "all" ] || [ "$only" = "pages" ]; then
port="${BENCH_PORT:-3199}"
base="http://127.0.0.1:$port"
start_signed_in "$work/data"
token="$(DATA_DIR="$work/data" "$ROOT/target/release/server" token create --email admin@pilotdesk.local --name bench | tail -n 1)"
say "Uploading a 30,000-record AIPerf per-request file"
"$venv/bin/python" bench/aiperf_jsonl.py 30000 >"$work/profile_export.jsonl"
/usr/bin/time -f '%e' -o "$work/upload_s" curl -sS -o "$work/upload.json" -w '%{http_code}' \
  -H "Authorization: Bearer $token" -F "file=@$work/profile_export.jsonl" \
  "$base/api/v1/pilots/1/evidence" >"$work/upload_status"
[ "$(cat "$work/upload_status")" = "201" ] || { cat "$work/upload.json"; die "the upload failed"; }
upload_s="$(tail -n 1 "$work/upload_s")"
# The upload starts work of its own (the pilot graded again, its recommendation made for the new
# evidence, seconds of both cores): measured during it, the pages' p99 doubled. Wait for it
# (the REST recommendation answers when the plan is made), view the page once, then measure.
curl -fsS -o /dev/null -H "Authorization: Bearer $token" "$base/api/v1/pilots/1/recommendation" || true
curl -fsS -o /dev/null -H "Cookie: pilotdesk_session=$cookie" "$base/pilots/1"
sleep 5
css="$(cd "$ROOT/target/site" && ls pkg/*/pilot-desk.css | head -n 1)"

measure() { # name url [header…]
  local name="$1" url="$2"; shift 2
  local args=()
  for h in "$@"; do args+=(-H "$h"); done
  wrk -t2 -c32 -d"${SECONDS_EACH}s" --latency "${args[@]}" "$url" >"$work/wrk.txt"
  local p50 p99 rps
  p50="$(awk '$1 == "50%" { print $2 }' "$work/wrk.txt")"
  p99="$(awk '$1 == "99%" { print $2 }' "$work/wrk.txt")"
  rps="$(awk '/Requests\/sec/ { print $2 }' "$work/wrk.txt")"
  printf '%-34s %10s %10s %12s\n' "$name" "$p50" "$p99" "$rps"
}
echo
echo "Pages at 32 concurrent clients (wrk, ${SECONDS_EACH} s each; the pilot holds the demo evidence + 30k-record AIPerf file, uploaded in ${upload_s} s)"
printf '%-34s %10s %10s %12s\n' "request" "p50" "p99" "requests/s"
measure "static asset (/$css, br)" "$base/$css" "Accept-Encoding: br"
# One client on one kept-alive connection: shows a delayed-ACK stall (40 ms a request without
# TCP_NODELAY) that 32 connections hide.
wrk -t1 -c1 -d"${SECONDS_EACH}s" --latency -H "Accept-Encoding: br" "$base/$css" >"$work/wrk.txt"
printf '%-34s %10s %10s %12s\n' "static asset, 1 keep-alive conn." \
  "$(awk '$1 == "50%" { print $2 }' "$work/wrk.txt")" "$(awk '$1 == "99%" { print $2 }' "$work/wrk.txt")" \
  "$(awk '/Requests\/sec/ { print $2 }' "$work/wrk.txt")"
measure "pilot page (/pilots/1)" "$base/pilots/1" "Cookie: pilotdesk_session=$cookie" "Accept-Encoding: br, gzip"
# One client after another: the median is the server's time per view (the overview is kept
# per state of the pilot, so this is a view, not a grading).
wrk -t1 -c1 -d"${SECONDS_EACH}s" --latency -H "Cookie: pilotdesk_session=$cookie" -H "Accept-Encoding: br, gzip" \
  "$base/pilots/1" >"$work/wrk.txt"
printf '%-34s %10s %10s %12s\n' "pilot page, 1 connection" \
  "$(awk '$1 == "50%" { print $2 }' "$work/wrk.txt")" "$(awk '$1 == "99%" { print $2 }' "$work/wrk.txt")" \
  "$(awk '/Requests\/sec/ { print $2 }' "$work/wrk.txt")"
measure "load-test page" "$base/pilots/1/load-tests" "Cookie: pilotdesk_session=$cookie" "Accept-Encoding: br, gzip"
measure "verdict API" "$base/api/v1/pilots/1/verdict" "Authorization: Bearer $token"
stop_demo_server
fi

# ---- 2. server demand against pandas ---------------------------------------------------------
if [ "$only" = "all" ] || [ "$only" = "demand" ]; then
echo
echo "Demand profile of a generic gateway log (JSON Lines): server demand vs pandas"
printf '%-12s %10s %-8s %10s %12s %10s\n' "requests" "size" "tool" "seconds" "peak RSS MB" "speed-up"
for n in 500000 1000000; do
  log="$work/gateway-$n.jsonl"
  "$ROOT/target/release/examples/synthetic_gateway_log" "$n" >"$log" 2>/dev/null
  size="$(du -m "$log" | cut -f1) MB"
  read -r ours_s ours_kb < <(median_run "$ROOT/target/release/server" demand "$log" --json)
  read -r theirs_s theirs_kb < <(median_run "$venv/bin/python" bench/demand_pandas.py "$log")
  speedup="$(awk -v a="$theirs_s" -v b="$ours_s" 'BEGIN { printf "%.1fx", a / (b > 0 ? b : 0.01) }')"
  printf '%-12s %10s %-8s %10s %12s %10s\n' "$n" "$size" "server" "$ours_s" "$((ours_kb / 1024))" "$speedup"
  printf '%-12s %10s %-8s %10s %12s\n' "" "" "pandas" "$theirs_s" "$((theirs_kb / 1024))"
  rm -f "$log"
done
fi

# ---- 3. the production recommendation of the demo pilot -------------------------------------
if [ "$only" = "all" ] || [ "$only" = "recommendation" ]; then
  data="$work/recommendation"
  port="${BENCH_PORT:-3199}"
  start_demo_server "$ROOT/target/release/server" "$data" "$port" RUST_LOG=warn
  stop_demo_server
  DATA_DIR="$data" "$ROOT/target/release/server" recommend --pilot 1 --json >"$work/plan.json"
  candidates="$(python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); print(len(p["candidates"]), sum(c["status"]["kind"] == "evaluated" for c in p["candidates"]), p["recommended"]["configuration"]["label"])' "$work/plan.json")"
  read -r plan_s plan_kb < <(export DATA_DIR="$data"; median_run "$ROOT/target/release/server" recommend --pilot 1 --json)
  echo
  echo "Production recommendation of the demo pilot (server recommend --pilot 1 --json, release, median of ${BENCH_REPEAT:-3})"
  printf '%-44s %10s %12s\n' "candidates (listed, simulated), recommended" "seconds" "peak RSS MB"
  printf '%-44s %10s %12s\n' "$candidates" "$plan_s" "$((plan_kb / 1024))"
fi

# ---- 4. live ingest ----------------------------------------------------------------------------
if [ "$only" = "all" ] || [ "$only" = "ingest" ]; then
  data="$work/ingest"
  port="${BENCH_PORT:-3199}"
  base="http://127.0.0.1:$port"
  rate="${BENCH_INGEST_RATE:-2000}"
  start_signed_in "$data"
  ingest="$(DATA_DIR="$data" "$ROOT/target/release/server" ingest-token create --pilot 1 --name bench | tail -n 1)"
  api="$(DATA_DIR="$data" "$ROOT/target/release/server" token create --email admin@pilotdesk.local --name bench | tail -n 1)"
  page_p99() { # seconds -> the pilot page's p99 on 4 connections
    wrk -t1 -c4 -d"$1s" --latency -H "Cookie: pilotdesk_session=$cookie" -H "Accept-Encoding: br, gzip" \
      "$base/pilots/1" | awk '$1 == "99%" { print $2 }'
  }
  idle="$(page_p99 "$SECONDS_EACH")"
  page_p99 "$SECONDS_EACH" >"$work/page_busy" &
  wrk_pid=$!
  python3 bench/ingest_load.py "$base" 1 "$ingest" --rate "$rate" --seconds "$SECONDS_EACH" \
    --template testdata/litellm-1.108.7-generic-api/posts.json >"$work/ingest.json"
  sent_at="$(date +%s.%N)"
  wait "$wrk_pid"
  busy="$(cat "$work/page_busy")"
  # Until the day files hold every record received.
  for _ in $(seq 1 600); do
    live="$(curl -fsS -H "Authorization: Bearer $api" "$base/api/v1/pilots/1/live")"
    python3 -c 'import json,sys; l=json.loads(sys.argv[1]); sys.exit(0 if l["records"] and l["records"] == l["rolled"] else 1)' "$live" && break
    sleep 0.5
  done
  lag="$(awk -v a="$sent_at" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')"
  stop_demo_server
  echo
  echo "Live ingest of LiteLLM generic_api batches (release, ${SECONDS_EACH} s at ${rate} records/s asked)"
  python3 - "$work/ingest.json" "$idle" "$busy" "$lag" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(f"{'records sent / accepted':44} {r['records_sent']} / {r['records_accepted']} ({r['failed_posts']} posts failed {r['failure_statuses']})")
print(f"{'records/s reached':44} {r['records_per_s']}  ({r['batch']} a post, {r['bytes_per_batch'] // 1024} KiB)")
print(f"{'post latency p50 / p99 / max (ms)':44} {r['post_ms_p50']} / {r['post_ms_p99']} / {r['post_ms_max']}")
print(f"{'pilot page p99 idle / under ingest':44} {sys.argv[2]} / {sys.argv[3]}")
print(f"{'all records in the day file after (s)':44} {sys.argv[4]}")
PY
fi

# ---- 5. first load of the pilot page in Chromium --------------------------------------------
if [ "$only" = "all" ] || [ "$only" = "firstload" ]; then
  ensure_chromium
  port="${BENCH_PORT:-3199}"
  base="http://127.0.0.1:$port"
  data="$work/firstload"
  start_signed_in "$data"
  # The first view makes the pilot's overview; the loads measured are views, not gradings.
  curl -fsS -o /dev/null -H "Cookie: pilotdesk_session=$cookie" "$base/pilots/1"
  echo
  PLAYWRIGHT_MODULE="$ROOT/end2end/node_modules/@playwright/test" CHROMIUM_PATH="$(chromium_path)" \
    node bench/first_load.cjs "$base" "$cookie" 5
  stop_demo_server
fi
