#!/usr/bin/env bash
# The live gateway feed with the real components (issue #36), a stage of `make test`: a real
# LiteLLM proxy (PyPI, offline) in front of the project's own streaming engine
# (testdata/tools/fake_engine.py), its `generic_api` callback posting to a running Pilot Desk
# with a pilot's ingest token. A few hundred streamed requests go through it, every fourth
# cancelled by the client mid-stream; the pilot's live demand must count exactly what was sent:
# requests, completed, cancelled (LiteLLM logs those as "success" with error 499) and the
# answers' length.
#
# Usage: scripts/live-gateway.sh SERVER_BINARY
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$ROOT"
server="${1:?usage: live-gateway.sh SERVER_BINARY}"
ensure_litellm

data="$(mktemp -d)"
port="${LIVE_PORT:-3125}" engine_port="${LIVE_ENGINE_PORT:-8125}" proxy_port="${LIVE_PROXY_PORT:-4125}"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  stop_demo_server
  rm -rf "$data"
}
trap cleanup EXIT
start_demo_server "$server" "$data" "$port" RUST_LOG=warn
base="http://127.0.0.1:$port"
api="$(DATA_DIR="$data" "$server" token create --email admin@pilotdesk.local --name live-test --days 1 | tail -n 1)"
pilot="$(curl -fsS -H "Authorization: Bearer $api" -H 'Content-Type: application/json' \
  -d '{"name": "Live through LiteLLM", "organisation": "Demo Customer", "model": "pilot-chat"}' \
  "$base/api/v1/pilots" | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')"
ingest="$(DATA_DIR="$data" "$server" ingest-token create --pilot "$pilot" --name litellm | tail -n 1)"
[[ "$ingest" == pdi_* ]] || die "no ingest token"

python3 "$ROOT/testdata/tools/fake_engine.py" --port "$engine_port" >"$data/engine.log" 2>&1 &
pids+=($!)
cat >"$data/litellm.yaml" <<YAML
model_list:
  - model_name: pilot-chat
    litellm_params:
      model: hosted_vllm/fake-model
      api_base: http://127.0.0.1:$engine_port/v1
      api_key: none
litellm_settings:
  callbacks: ["generic_api"]
general_settings:
  master_key: sk-live-test
YAML
(
  cd "$data"
  export LITELLM_LOCAL_MODEL_COST_MAP=True
  export GENERIC_LOGGER_ENDPOINT="$base/api/v1/pilots/$pilot/gateway/records"
  export GENERIC_LOGGER_HEADERS="Authorization=Bearer $ingest"
  exec "$TOOLS/venv-litellm/bin/litellm" --config "$data/litellm.yaml" --port "$proxy_port" >"$data/proxy.log" 2>&1
) &
pids+=($!)
for _ in $(seq 1 180); do
  curl -fsS "http://127.0.0.1:$proxy_port/health/liveliness" >/dev/null 2>&1 && break
  sleep 1
done
curl -fsS "http://127.0.0.1:$proxy_port/health/liveliness" >/dev/null 2>&1 || { tail -n 40 "$data/proxy.log"; die "LiteLLM did not start"; }

say "Live gateway feed: ${LIVE_REQUESTS:-240} requests through LiteLLM $LITELLM_VERSION into pilot $pilot"
sent="$(python3 "$ROOT/scripts/live_gateway_client.py" --url "http://127.0.0.1:$proxy_port" --key sk-live-test \
  --requests "${LIVE_REQUESTS:-240}" --concurrency 8 --cancel-every 4 --max-tokens 24)"
echo "sent: $sent"

# LiteLLM flushes its batch every few seconds; the pilot rolls each batch within seconds.
python3 - "$base" "$api" "$pilot" "$sent" <<'PY' || { tail -n 30 "$data/proxy.log"; grep -i -E "warn|error" "$data/server.log" | tail -n 20; exit 1; }
import json, sys, time, urllib.request
base, api, pilot, sent = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
def get(path):
    request = urllib.request.Request(base + path, headers={"Authorization": "Bearer " + api})
    with urllib.request.urlopen(request) as response:
        return json.load(response)
expected = sent["requests"]
demand, live = None, None
for _ in range(120):
    live = get(f"/api/v1/pilots/{pilot}/live")
    if live["records"] >= expected and live["records"] == live["rolled"]:
        demand = get(f"/api/v1/pilots/{pilot}/demand")
        if demand["requests"] >= expected:
            break
    time.sleep(1)
print("live:", json.dumps({k: live[k] for k in ("records", "rolled", "active_tokens")}))
if demand is None:
    sys.exit(f"the pilot did not receive the {expected} requests within 2 minutes: {live}")
got = {k: demand[k] for k in ("requests", "ok", "cancelled", "failed")}
tokens = demand["completion_tokens"] or {}
print("demand:", json.dumps(got), "answer tokens:", json.dumps({k: tokens.get(k) for k in ("count", "p50", "max")}))
problems = []
if got["requests"] != expected:
    problems.append(f"requests {got['requests']} != sent {expected}")
if got["cancelled"] != sent["cancelled"]:
    problems.append(f"cancelled {got['cancelled']} != hung up {sent['cancelled']}")
if got["ok"] != sent["completed"]:
    problems.append(f"ok {got['ok']} != completed {sent['completed']}")
if not (tokens and tokens["max"] == sent["max_tokens"] and tokens["p50"] == sent["max_tokens"]):
    problems.append(f"answer length {tokens} != max_tokens {sent['max_tokens']}")
if problems:
    sys.exit("the live demand does not match what was sent: " + "; ".join(problems))
print(f"live gateway feed: {expected} requests, {sent['cancelled']} cancelled, counted exactly")
PY
