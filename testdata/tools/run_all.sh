#!/usr/bin/env bash
# Repeats the project's own tool runs behind testdata/litellm-1.108.7-generic-api,
# testdata/aiperf-0.13.0-sweep and testdata/guidellm-0.8.1-concurrent (see testdata/SOURCES.md).
#
# Needs three virtual environments (the tools' pins conflict: litellm[proxy] wants rich<14 and
# aiohttp>=3.14.2, aiperf 0.13.0 rich~=14.1 and aiohttp~=3.13.3):
#   python3 -m venv $VENVS/venv-litellm  && $VENVS/venv-litellm/bin/pip install 'litellm[proxy]==1.108.7'
#   python3 -m venv $VENVS/venv-aiperf   && $VENVS/venv-aiperf/bin/pip install aiperf==0.13.0
#   python3 -m venv $VENVS/venv-guidellm && $VENVS/venv-guidellm/bin/pip install guidellm==0.8.1
# Everything runs offline on 127.0.0.1: the engine is fake_engine.py, LiteLLM reads its bundled
# cost map (LITELLM_LOCAL_MODEL_COST_MAP=True), aiperf counts tokens with its builtin tokenizer
# (the o200k encoding inside the litellm wheel, via TIKTOKEN_CACHE_DIR), guidellm with the word
# tokenizer make_tokenizer.py builds.
#
# Usage: run_all.sh [OUT_DIR]   (default /tmp/pilot-tools-run; the raw outputs land there)
set -euo pipefail
OUT=${1:-/tmp/pilot-tools-run}
VENVS=${VENVS:-/tmp}
HERE=$(cd "$(dirname "$0")" && pwd)
PY=python3
rm -rf "$OUT" && mkdir -p "$OUT"
cd "$OUT"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

export LITELLM_LOCAL_MODEL_COST_MAP=True HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 TRANSFORMERS_OFFLINE=1
export GENERIC_LOGGER_ENDPOINT=http://127.0.0.1:8200/log
export TIKTOKEN_CACHE_DIR=$("$VENVS/venv-litellm/bin/python" -c 'import litellm, os; print(os.path.join(os.path.dirname(litellm.__file__), "litellm_core_utils", "tokenizers"))')

$PY "$HERE/fake_engine.py" --port 8100 > engine.log 2>&1 & PIDS+=($!)
$PY "$HERE/log_sink.py" "$OUT/sink-gateway" --port 8200 > sink.log 2>&1 & SINK=$!; PIDS+=($SINK)
"$VENVS/venv-litellm/bin/litellm" --config "$HERE/litellm_config.yaml" --port 4000 > proxy.log 2>&1 & PIDS+=($!)
for _ in $(seq 120); do
  curl -sf http://127.0.0.1:4000/health/liveliness > /dev/null && break
  sleep 1
done
KEY=sk-pilot-master

# 1. The gateway log: complete, cancelled, refused and non-generation calls, and two /health
#    probes (one that LiteLLM runs against the model, one refused for a bad key). The pauses
#    outlast LiteLLM's 5 s flush, so the sink gets several JSON arrays.
$PY "$HERE/gateway_client.py" --key $KEY --complete 4
sleep 6
$PY "$HERE/gateway_client.py" --key $KEY --cancel-after 1,2,3,5,8,13,21,34
sleep 6
$PY "$HERE/gateway_client.py" --key $KEY --bad-key --embedding
curl -s http://127.0.0.1:4000/health -H "Authorization: Bearer $KEY" > health-ok.json
curl -s http://127.0.0.1:4000/health -H "Authorization: Bearer sk-not-a-key" > health-bad-key.json
sleep 8
kill $SINK
# The load tests' own traffic goes to another folder (not kept in testdata).
$PY "$HERE/log_sink.py" "$OUT/sink-load" --port 8200 > sink-load.log 2>&1 & PIDS+=($!)
sleep 1

# 2. aiperf: a concurrency sweep 1,2,4, 8 requests each, streamed.
"$VENVS/venv-aiperf/bin/aiperf" profile --model pilot-chat --url http://127.0.0.1:4000 \
  --endpoint-type chat --streaming --tokenizer builtin --api-key $KEY \
  --concurrency 1,2,4 --request-count 8 --synthetic-input-tokens-mean 32 \
  --output-tokens-mean 24 --ui none --output-artifact-dir "$OUT/aiperf" > aiperf.log 2>&1

# 3. guidellm: concurrent 1,2,4 streams, 8 requests each, JSON and CSV reports.
"$VENVS/venv-guidellm/bin/python" "$HERE/make_tokenizer.py" "$OUT/tokenizer" > /dev/null
"$VENVS/venv-guidellm/bin/guidellm" run \
  --backend kind=openai_http,target=http://127.0.0.1:4000,model=pilot-chat,api_key=$KEY \
  --tokenizer kind=huggingface_auto,model="$OUT/tokenizer" \
  --data kind=synthetic_text,prompt_tokens=32,output_tokens=24 \
  --profile kind=concurrent --override profile.streams 1,2,4 \
  --constraint kind=max_requests,count=8 \
  --output kind=json,path="$OUT/guidellm/benchmarks.json" \
  --output kind=csv,path="$OUT/guidellm/benchmarks.csv" \
  --disable-console-interactive > guidellm.log 2>&1
sleep 6
echo "done: $OUT"
