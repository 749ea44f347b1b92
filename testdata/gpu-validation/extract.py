#!/usr/bin/env python3
"""Build runs.json from the raw result files kept in this folder.

Python 3 standard library only. Run from anywhere:

    python3 testdata/gpu-validation/extract.py          # rewrites runs.json
    python3 testdata/gpu-validation/extract.py --check  # exits 1 if runs.json is stale

Every number in runs.json is read from a raw file here by this script; nothing is typed in
by hand. Units are converted only where the raw file uses another unit than the field name
says (the Argonne CSV gives seconds; its values are multiplied by 1000 and the raw value is
kept next to it). A run is one operating point (one concurrency or request-rate level, one
input/output shape) of one file. Runs with an equal `pair_key` on different GPUs form a
validation pair. See README.md for what pairs exist and their caveats.
"""

import csv
import io
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def rel(path):
    return os.path.relpath(path, HERE).replace(os.sep, "/")


def stat(mean=None, p50=None, p99=None, p95=None):
    if mean is None and p50 is None and p99 is None and p95 is None:
        return None
    out = {"mean": mean, "p50": p50, "p99": p99}
    if p95 is not None:
        out["p95"] = p95
    return out


def num(text):
    """Parse a number as printed; keep ints as ints."""
    text = text.strip()
    if text == "":
        return None
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return float(text)


def run_record(**kw):
    base = {
        "file": None,
        "source": None,
        "gpu": None,
        "gpu_as_written": None,
        "gpu_count": None,
        "tp": None,
        "model": None,
        "engine": None,
        "engine_version": None,
        "server_command": None,
        "dataset": None,
        "input_tokens": None,
        "output_tokens": None,
        "input_tokens_measured_mean": None,
        "output_tokens_measured_mean": None,
        "concurrency": None,
        "request_rate": None,
        "num_prompts": None,
        "completed": None,
        "ttft_ms": None,
        "tpot_ms": None,
        "itl_ms": None,
        "e2e_ms": None,
        "request_throughput_rps": None,
        "output_throughput_tok_s": None,
        "decode_speed_tok_s": None,
        "pair_key": None,
        "notes": None,
    }
    for k, v in kw.items():
        if k not in base:
            raise KeyError(k)
        base[k] = v
    return base


# ---------------------------------------------------------------------------
# GPUStack performance lab (markdown pages with `vllm bench serve` text output)
# ---------------------------------------------------------------------------

GPUSTACK_DIR = os.path.join(HERE, "gpustack-performance-lab")

GPUSTACK_GPU = {
    "a100": ("a100-sxm4-80gb", re.compile(r"A100 SXM( 80GB)?")),
    "h100": ("h100-sxm", re.compile(r"H100 SXM")),
    "h200": ("h200-sxm", re.compile(r"H200 SXM")),
}

# Workload of each labelled result block, from each page's "Benchmark Dataset" section:
# "Very long prompt: 32000 input tokens, 100 output tokens", "Long prompt: 4000 / 200",
# "Medium prompt: 2000 / 100", "Short prompt: 128 / 4"; ShareGPT otherwise.
GPUSTACK_RANDOM = {
    "random 32K input": (32000, 100),
    "random 4K input": (4000, 200),
    "random 2K input": (2000, 100),
    "random 128 input": (128, 4),
}

# Server flags that do not change the workload or the engine's execution path enough to
# split a pair; everything else becomes part of the pair key.
# Two copy-paste slips in the pages: the serving command names another model than the page
# (and than the benchmark command) is about. Durations confirm the page's model.
GPUSTACK_MODEL_TYPOS = {
    ("gpt-oss-20b", "openai/gpt-oss-120b"): "openai/gpt-oss-20b",
    ("qwen3-32b", "Qwen/Qwen3-14B"): "Qwen/Qwen3-32B",
}

BENIGN_FLAGS = {
    "--host", "--port", "--tool-call-parser", "--reasoning-parser", "--max-model-len",
    "--max_seq_len", "--gpu-memory-utilization", "--trust-remote-code",
}
TP_FLAGS = {"-tp", "--tp", "--tp-size", "--tensor-parallel-size", "--tp_size"}
MODEL_FLAGS = {"--model", "--model-path"}


def parse_server_command(cmd):
    """Return engine, model, tp, normalised flag key, env from a serving command line."""
    toks = cmd.split()
    env = []
    while toks and re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", toks[0]):
        env.append(toks.pop(0))
    engine = None
    model = None
    rest = []
    if toks[:2] == ["vllm", "serve"]:
        engine = "vllm"
        model = toks[2]
        rest = toks[3:]
    elif toks[:3] == ["python3", "-m", "sglang.launch_server"]:
        engine = "sglang"
        rest = toks[3:]
    elif toks[:1] == ["trtllm-serve"]:
        engine = "trtllm"
        model = toks[1]
        rest = toks[2:]
    else:
        raise ValueError("unknown serving command: %r" % cmd)
    tp = 1
    flags = []
    i = 0
    while i < len(rest):
        t = rest[i]
        key, val = t, None
        if "=" in t and t.startswith("--"):
            key, val = t.split("=", 1)
        elif i + 1 < len(rest) and not rest[i + 1].startswith("-"):
            val = rest[i + 1]
            i += 1
        i += 1
        if key in MODEL_FLAGS:
            model = val
            continue
        if key in TP_FLAGS:
            tp = int(val)
            continue
        if key in BENIGN_FLAGS:
            continue
        flags.append(key if val is None else "%s=%s" % (key, val))
    flags = sorted(flags) + sorted(env)
    return engine, model, tp, flags


def parse_result_block(lines):
    """Parse one `============ Serving Benchmark Result ============` block."""
    out = {}
    for line in lines:
        m = re.match(r"\s*([^:]+):\s+(\S+)\s*$", line)
        if m:
            out[m.group(1).strip()] = m.group(2)
    return out


def gpustack_blocks(text):
    """Yield (command, label, fields) for every result block of a page, in order."""
    lines = text.split("\n")
    cmd = None
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        if re.match(r'\?\?\?\+? (info|tip) "(Baseline |Optimized )?[Ss]erving (script|Command)"', line.strip()):
            # the command is the fenced bash block that follows; join continuation lines
            j = i + 1
            while not lines[j].strip().startswith("```"):
                j += 1
            j += 1
            parts = []
            while not lines[j].strip().startswith("```"):
                s = lines[j].strip()
                if s and not s.startswith("#"):
                    parts.append(s.rstrip("\\").strip())
                j += 1
            cmd = " ".join(parts)
            i = j + 1
            continue
        if re.match(r'\?\?\? info "(Baseline |Optimized )?[Bb]enchmark results?"', line.strip()):
            j = i + 1
            while not lines[j].strip().startswith("```"):
                j += 1
            j += 1
            label = None
            while not lines[j].strip().startswith("```"):
                s = lines[j].strip()
                if s.startswith("# "):
                    label = s[2:].strip()
                elif s.startswith("============ Serving Benchmark Result"):
                    k = j + 1
                    while not lines[k].strip().startswith("====="):
                        k += 1
                    yield cmd, label, parse_result_block(lines[j + 1:k]), j + 1
                    j = k
                j += 1
            i = j + 1
            continue
        i += 1


def gpustack_versions(text):
    out = {}
    m = re.search(r"### Engine Version\n\n((?:- .*\n)+)", text)
    if m:
        for line in m.group(1).splitlines():
            k, v = line[2:].split(":", 1)
            out[k.strip()] = v.strip()
    return out


def gpustack_runs():
    runs = []
    engine_names = {"vllm": "vLLM", "sglang": "SGLang", "trtllm": "TensorRT-LLM"}
    for model_dir in sorted(os.listdir(GPUSTACK_DIR)):
        for fname in sorted(os.listdir(os.path.join(GPUSTACK_DIR, model_dir))):
            path = os.path.join(GPUSTACK_DIR, model_dir, fname)
            text = open(path, encoding="utf-8").read()
            gkey = fname[:-3]
            gpu_id, gpu_re = GPUSTACK_GPU[gkey]
            hw = re.search(r"### Hardware\n\n(.*)\n", text).group(1)
            gm = gpu_re.search(hw)
            gpu_as_written = gm.group(0) if gm else hw
            versions = gpustack_versions(text)
            seen = set()
            for cmd, label, f, lineno in gpustack_blocks(text):
                engine, model, tp, flags = parse_server_command(cmd)
                notes = []
                fix = GPUSTACK_MODEL_TYPOS.get((model_dir, model))
                if fix:
                    notes.append("the page's serving command names %s; this page is about %s and "
                                 "the numbers fit it, so the model is taken as %s (typo in source)"
                                 % (model, model_dir, fix))
                    cmd = cmd.replace(model, fix)
                    model = fix
                family = {"glm-4.x": "glm-4."}.get(model_dir, model_dir)
                if family not in model.lower():
                    raise ValueError("%s:%d model %s not of page %s" % (path, lineno, model, model_dir))
                effective_cmd = cmd
                if label == "fa3":
                    # qwen3-14b/h100.md: SGLang attention-backend sweep, first entry unlabelled
                    # with a flag ("# fa3", then "# --attention-backend=flashinfer", ...)
                    label = "--attention-backend=fa3"
                if label and label.startswith("--"):
                    # a flag sweep inside one block: the label is the flag value used
                    fk, _, fv = label.replace("=", " ", 1).partition(" ")
                    fv = fv.strip() or None
                    flags = sorted([x for x in flags if not x.startswith(fk + "=")] +
                                   [fk if fv is None else "%s=%s" % (fk, fv)])
                    effective_cmd = re.sub(re.escape(fk) + r"[ =]\S+", "%s %s" % (fk, fv), cmd) \
                        if fk in cmd else "%s %s %s" % (cmd, fk, fv)
                    workload_label = None
                else:
                    workload_label = label
                completed = num(f["Successful requests"])
                conc = num(f["Maximum request concurrency"]) if "Maximum request concurrency" in f else None
                if workload_label is None or workload_label.startswith("ShareGPT"):
                    dataset = "sharegpt"
                    in_tok = out_tok = None
                elif workload_label in GPUSTACK_RANDOM:
                    dataset = "random"
                    in_tok, out_tok = GPUSTACK_RANDOM[workload_label]
                else:
                    raise ValueError("%s: unknown block label %r" % (path, label))
                tot_in = num(f["Total input tokens"])
                tot_out = num(f["Total generated tokens"])
                if dataset == "sharegpt":
                    wl = "sharegpt"
                else:
                    wl = "random-%dx%d" % (in_tok, out_tok)
                shape = "c%d" % conc if conc is not None else "rate-inf"
                pair_key = "|".join([
                    engine, model, "tp%d" % tp, wl, shape,
                    "flags:" + (",".join(flags) if flags else "default"),
                ])
                pp = 1
                for fl in flags:
                    k, _, v = fl.partition("=")
                    if k in ("-pp", "--pp-size", "--pipeline-parallel-size", "--pp_size") and v:
                        pp = int(v)
                sig = (pair_key, json.dumps(f, sort_keys=True))
                if sig in seen:
                    # glm-4.x/h200.md prints the same SGLang TP8 FP8 result twice (sections 2
                    # and 3); keep the first
                    continue
                seen.add(sig)
                notes.insert(0, "line %d; block label: %s" % (
                    lineno, label if label else "(none: ShareGPT engine/option comparison)"))
                runs.append(run_record(
                    file=rel(path),
                    source="gpustack-performance-lab",
                    gpu=gpu_id,
                    gpu_as_written=gpu_as_written,
                    gpu_count=tp * pp,
                    tp=tp,
                    model=model,
                    engine=engine,
                    engine_version=versions.get(engine_names[engine]),
                    server_command=effective_cmd,
                    dataset=dataset,
                    input_tokens=in_tok,
                    output_tokens=out_tok,
                    input_tokens_measured_mean=round(tot_in / completed, 3),
                    output_tokens_measured_mean=round(tot_out / completed, 3),
                    concurrency=conc,
                    request_rate="inf",
                    num_prompts=completed,
                    completed=completed,
                    ttft_ms=stat(num(f["Mean TTFT (ms)"]), num(f["Median TTFT (ms)"]), num(f["P99 TTFT (ms)"])),
                    tpot_ms=stat(num(f["Mean TPOT (ms)"]), num(f["Median TPOT (ms)"]), num(f["P99 TPOT (ms)"])),
                    itl_ms=stat(num(f["Mean ITL (ms)"]), num(f["Median ITL (ms)"]), num(f["P99 ITL (ms)"])),
                    e2e_ms=None,
                    request_throughput_rps=num(f["Request throughput (req/s)"]),
                    output_throughput_tok_s=num(f["Output token throughput (tok/s)"]),
                    pair_key=pair_key,
                    notes="; ".join(notes),
                ))
    return runs


# ---------------------------------------------------------------------------
# dstack benchmarks (CSV summaries the dstack authors compiled from their raw runs)
# ---------------------------------------------------------------------------

DSTACK_DIR = os.path.join(HERE, "dstack-benchmarks")

# Engine versions and server commands as the Deepseek-R1/README.md of the same commit states
# them (dstackai/benchmarks@7f37e6697725e58dd09b9ef190b62ce19f01d45e).
DSTACK_R1 = {
    ("h200", "vllm"): ("0.7.4.dev181+gf35f8e22",
                       "VLLM_ATTENTION_BACKEND=FLASHMLA vllm serve deepseek-ai/DeepSeek-R1 "
                       "--trust-remote-code --tensor-parallel-size 8 (vllm nightly on "
                       "vllm/vllm-openai:v0.7.3; shared-prefix runs add --enable-prefix-caching "
                       "--enable-chunked-prefill)"),
    ("mi300x", "vllm"): ("0.7.3.dev138+g21f6ca217",
                         "VLLM_FP8_PADDING=0 VLLM_USE_TRITON_FLASH_ATTN=0 vllm serve "
                         "deepseek-ai/DeepSeek-R1 --tensor-parallel-size 8 --trust-remote-code "
                         "--max-model-len 32768 (rocm/vllm-dev:vllm-ds3-staging-0217)"),
    ("h200", "sglang"): ("0.4.3.post2",
                         "python3 -m sglang.launch_server --model deepseek-ai/DeepSeek-R1 --tp 8 "
                         "--trust-remote-code --enable-dp-attention (lmsysorg/sglang:latest)"),
    ("mi300x", "sglang"): ("0.4.2.post4",
                           "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-R1 "
                           "--tp 8 --trust-remote-code (rocm/sglang-staging:20250212)"),
    ("h200", "trt-llm"): ("0.17.post1.dev",
                          "trtllm-serve --backend pytorch --tp_size 8 --ep_size 4 --pp_size 1 "
                          "deepseek (TensorRT-LLM deepseek branch build)"),
}
DSTACK_GPU = {"h200": ("h200-sxm", "8xH200 SXM5 141GB"), "mi300x": ("mi300x", "8xMi300x 192GB")}


def dstack_r1_runs():
    path = os.path.join(DSTACK_DIR, "deepseek-r1", "online_results.csv")
    text = open(path, encoding="utf-8-sig", newline="").read()
    runs = []
    for i, row in enumerate(csv.DictReader(io.StringIO(text)), start=2):
        gpu_key, engine = row["GPU"], row["backend"]
        version, cmd = DSTACK_R1[(gpu_key, engine)]
        gpu_id, gpu_written = DSTACK_GPU[gpu_key]
        completed = num(row["completed"])
        conc = num(row["max_concurrency"])
        ds = row["dataset_name"]
        in_mean = num(row["total_input_tokens"]) / completed
        out_mean = num(row["total_output_tokens"]) / completed
        if ds == "random":
            in_tok, out_tok = num(row["random_input_len"]), num(row["random_output_len"])
            wl = "random-%dx%d-rr%s" % (in_tok, out_tok, row["random_range_ratio"])
            dataset = "random (range ratio %s)" % row["random_range_ratio"]
        else:
            # generated-shared-prefix: 10 groups x 50 prompts, system prompt 2000 tokens,
            # question 1200 tokens, output 800 (README); the CSV's random_* columns are the
            # unused defaults, so the measured means are what counts here
            in_tok, out_tok = None, 800
            wl = "gsp-10x50-sys2000-q1200-out800"
            dataset = "generated-shared-prefix (10 groups x 50 prompts, sys 2000, question 1200, out 800)"
        runs.append(run_record(
            file=rel(path),
            source="dstack-benchmarks/deepseek-r1",
            gpu=gpu_id,
            gpu_as_written=gpu_key + " (" + gpu_written + ")",
            gpu_count=8,
            tp=8,
            model="deepseek-ai/DeepSeek-R1",
            engine={"trt-llm": "trtllm"}.get(engine, engine),
            engine_version=version,
            server_command=cmd,
            dataset=dataset,
            input_tokens=in_tok,
            output_tokens=out_tok,
            input_tokens_measured_mean=round(in_mean, 3),
            output_tokens_measured_mean=round(out_mean, 3),
            concurrency=conc,
            request_rate=None,
            num_prompts=500,
            completed=completed,
            ttft_ms=stat(num(row["mean_ttft_ms"]), num(row["median_ttft_ms"]), num(row["p99_ttft_ms"])),
            tpot_ms=stat(num(row["mean_tpot_ms"]), num(row["median_tpot_ms"]), num(row["p99_tpot_ms"])),
            itl_ms=stat(num(row["mean_itl_ms"]), num(row["median_itl_ms"]), num(row["p99_itl_ms"])),
            e2e_ms=stat(num(row["mean_e2e_latency_ms"]), num(row["median_e2e_latency_ms"]),
                        num(row["p99_e2e_latency_ms"])),
            request_throughput_rps=num(row["request_throughput"]),
            output_throughput_tok_s=num(row["output_throughput"]),
            pair_key="|".join([{"trt-llm": "trtllm"}.get(engine, engine), "deepseek-ai/DeepSeek-R1",
                               "tp8", wl, "c%d" % conc, "sglang-bench_serving"]),
            notes="CSV line %d; client: SGLang bench_serving.py (dstack copy), --num-prompts 500"
                  % i,
        ))
    return runs


DSTACK_405B = {
    # label in the CSV: (gpu id, gpu count, model, engine version, server command)
    "8xH100 1FP8-meta": ("h100-sxm", 8, "meta-llama/Llama-3.1-405B-FP8", "0.6.3.post2.dev308+gb489fc3c",
                         "vllm serve meta-llama/Llama-3.1-405B-FP8 --tensor-parallel-size 8 "
                         "--max-model-len 91680"),
    "8xMi300x 1FP8-meta": ("mi300x", 8, "meta-llama/Llama-3.1-405B-FP8", "0.6.3.dev109+gcb3b2b9b.d20241010",
                           "VLLM_RPC_TIMEOUT=30000 VLLM_USE_TRITON_FLASH_ATTN=0 vllm serve "
                           "meta-llama/Llama-3.1-405B-FP8 -tp 8 --max-seq-len-to-capture 16384 "
                           "--enable-chunked-prefill=False --num-scheduler-step 15 --max-num-seqs 1024"),
    "8xMi300x 1FP8-amd": ("mi300x", 8, "amd/Llama-3.1-405B-Instruct-FP8-KV", "0.6.4.dev4+gc9fc1608", None),
    "4xMi300x 1FP8-amd": ("mi300x", 4, "amd/Llama-3.1-405B-Instruct-FP8-KV", "0.6.4.dev4+gc9fc1608", None),
    "8xMi300x  2FP8-amd": ("mi300x", 8, "amd/Llama-3.1-405B-Instruct-FP8-KV (2FP8 variant)",
                           "0.6.4.dev4+gc9fc1608", None),
}


def dstack_405b_runs():
    path = os.path.join(DSTACK_DIR, "h100sxm5_vs_mi300x", "qps_comparison.csv")
    text = open(path, encoding="utf-8-sig", newline="").read()
    runs = []
    for i, row in enumerate(csv.DictReader(io.StringIO(text)), start=2):
        label = row["gpu"]
        gpu_id, n, model, version, cmd = DSTACK_405B[label]
        completed = num(row["completed"])
        rate = num(row["request_rate"])
        runs.append(run_record(
            file=rel(path),
            source="dstack-benchmarks/h100sxm5_vs_mi300x",
            gpu=gpu_id,
            gpu_as_written=label,
            gpu_count=n,
            tp=n,
            model=model,
            engine="vllm",
            engine_version=version,
            server_command=cmd,
            dataset="sharegpt",
            input_tokens=None,
            output_tokens=None,
            input_tokens_measured_mean=round(num(row["total_input_tokens"]) / completed, 3),
            output_tokens_measured_mean=round(num(row["total_output_tokens"]) / completed, 3),
            concurrency=None,
            request_rate=rate,
            num_prompts=num(row["num_prompts"]),
            completed=completed,
            ttft_ms=stat(num(row["mean_ttft_ms"]), num(row["median_ttft_ms"]), num(row["p99_ttft_ms"])),
            tpot_ms=stat(num(row["mean_tpot_ms"]), num(row["median_tpot_ms"]), num(row["p99_tpot_ms"])),
            itl_ms=stat(num(row["mean_itl_ms"]), num(row["median_itl_ms"]), num(row["p99_itl_ms"])),
            e2e_ms=None,
            request_throughput_rps=num(row["request_throughput"]),
            output_throughput_tok_s=num(row["output_throughput"]),
            pair_key="|".join(["vllm", model, "tp%d" % n, "sharegpt-n%d" % num(row["num_prompts"]),
                               "rate-%s" % row["request_rate"], "benchmark_serving"]),
            notes="CSV line %d; server as CSV states it: num-scheduler-step=%s, "
                  "enable-chunked-prefill=%s, max-num-batched-tokens=%s, max-num-seqs=%s, "
                  "max-seq-len-to-capture=%s, enable-prefix-caching=%s; raw run: %s" % (
                      i, row["num-scheduler-step"], row["enable-chunked-prefill"],
                      row["max-num-batched-tokens"], row["max-num-seqs"],
                      row["max-seq-len-to-capture"], row["enable-prefix-caching"],
                      row["filename"] or "(not named)"),
        ))
    return runs


# ---------------------------------------------------------------------------
# Argonne LLM-Inference-Bench (offline vLLM benchmark_latency: a fixed batch, in = out)
# ---------------------------------------------------------------------------

ARGONNE = os.path.join(HERE, "argonne-llm-inference-bench", "All_results.csv")
ARGONNE_GPU = {
    "Nvidia A100 GPU": "a100",
    "Nvidia H100 GPU": "h100-sxm",
    "Nvidia GH200 GPU": "gh200",
    "AMD MI300X GPU": "mi300x",
}
# MI250 rows are left out: an "AMD MI250 GPU" there is one of the module's two dies (GCDs),
# which no catalog entry describes. Intel and non-vLLM rows are left out too.
ARGONNE_VERSION = {"AMD MI300X GPU": "v0.6.1 (source build, vLLM/MI300X/README.md)"}


def argonne_runs():
    rows = list(csv.DictReader(open(ARGONNE, encoding="utf-8", newline="")))
    keep = []
    by_key = {}
    for i, row in enumerate(rows, start=2):
        if row["Framework"] != "vLLM" or row["Hardware"] not in ARGONNE_GPU:
            continue
        key = (row["Model"], row["Num of Hardware"], row["Input Output Length"], row["Batch Size"])
        by_key.setdefault(key, set()).add(row["Hardware"])
        keep.append((i, row, key))
    runs = []
    first = {}
    for i, row, key in keep:
        if len(by_key[key]) < 2:
            continue  # no other GPU ran this point
        hw_key = (row["Hardware"],) + key
        if hw_key in first:
            # a repeated measurement of the same point on the same GPU: keep the first row,
            # record the repeat in its notes
            first[hw_key]["notes"] += "; repeat on CSV line %d: Latency (s) %s" % (i, row["Latency"])
            continue
        n = num(row["Num of Hardware"])
        length = num(row["Input Output Length"])
        batch = num(row["Batch Size"])
        lat_s = row["Latency"]
        runs.append(run_record(
            file=rel(ARGONNE),
            source="argonne-llm-inference-bench",
            gpu=ARGONNE_GPU[row["Hardware"]],
            gpu_as_written=row["Hardware"],
            gpu_count=n,
            tp=n,
            model=row["Model"],
            engine="vllm",
            engine_version=ARGONNE_VERSION.get(row["Hardware"]),
            server_command="offline: benchmark_latency.py --input-len=%d --output-len=%d "
                           "--batch-size=%d --tensor-parallel-size=%d --dtype=float16" % (
                               length, length, batch, n),
            dataset="offline-fixed-batch (dummy prompts, ignore_eos)",
            input_tokens=length,
            output_tokens=length,
            concurrency=batch,
            request_rate=None,
            num_prompts=batch,
            completed=batch,
            e2e_ms=stat(mean=float(lat_s) * 1000.0),
            request_throughput_rps=None,
            output_throughput_tok_s=None,
            pair_key="|".join(["vllm-offline", row["Model"], "tp%d" % n,
                               "fixed-%dx%d" % (length, length), "batch%d" % batch]),
            notes="CSV line %d; Latency (s) as written: %s (mean batch latency, = e2e of every "
                  "request); Throughput as written: %s tok/s (= batch*(in+out)/latency)" % (
                      i, lat_s, row["Throughput"]),
        ))
        first[hw_key] = runs[-1]
    return runs


# ---------------------------------------------------------------------------
# sariekr/gpu_conc (closed-loop concurrency sweep, one JSON per level, own client)
# ---------------------------------------------------------------------------

GPUCONC_DIR = os.path.join(HERE, "sariekr-gpu_conc")
GPUCONC_GPU = {
    "NVIDIA H100 PCIe": "h100-pcie",
    "NVIDIA H200": "h200",
    "NVIDIA B200": "b200",
    "Unknown GPU": "mi300x",  # the MI300X/ folder; the client's NVML probe found no NVIDIA GPU
}


def gpuconc_runs():
    runs = []
    for folder in sorted(os.listdir(GPUCONC_DIR)):
        for fname in sorted(os.listdir(os.path.join(GPUCONC_DIR, folder)),
                            key=lambda f: int(re.search(r"_(\d+)\.json$", f).group(1))):
            path = os.path.join(GPUCONC_DIR, folder, fname)
            d = json.load(open(path, encoding="utf-8"))
            gpu_written = d["gpu_info"]["model"]
            gpu_id = GPUCONC_GPU[gpu_written]
            if gpu_written == "Unknown GPU":
                gpu_written = "Unknown GPU (folder MI300X/)"
            cfg = d["test_config"]
            c = d["concurrency"]
            notes = [
                "closed loop for %ss per level, request timeout %ss; %d sent, %d ok, %d failed"
                % (cfg["phase_duration"], cfg["request_timeout"], d["total_requests_sent"],
                   d["successful_requests"], d["failed_requests"]),
                "TTFT/e2e are client wall-clock per request; decode_speed = streamed chunks "
                "(counted as tokens) / (end - first chunk); no TPOT/ITL in the file",
                "input_tokens/output_tokens are the client's targets (prompt padded by words, "
                "max_tokens=1000, no ignore_eos); measured token counts are not in the file",
            ]
            if c >= 32:
                notes.append("suspect load: from c=32 up the number of requests sent is the same "
                             "on all four GPUs (391, 423, 487 ...) and per-request speed is flat; "
                             "the client's concurrency handling was changed upstream later "
                             "(commits 194ff93, 8c0044c), so the real in-flight count may be "
                             "lower than c")
            runs.append(run_record(
                file=rel(path),
                source="sariekr-gpu_conc",
                gpu=gpu_id,
                gpu_as_written=gpu_written,
                gpu_count=d["gpu_info"]["count"],
                tp=1,
                model=d["model"],
                engine="vllm",
                engine_version=None,
                server_command=None,
                dataset="synthetic paragraphs padded to ~%d words (client's own generator)"
                        % cfg["input_tokens"],
                input_tokens=cfg["input_tokens"],
                output_tokens=cfg["output_tokens"],
                concurrency=c,
                request_rate=None,
                num_prompts=d["total_requests_sent"],
                completed=d["successful_requests"],
                ttft_ms=stat(d["average_ttft"], d["median_ttft"], d["p99_ttft"], d["p95_ttft"]),
                e2e_ms=stat(d["average_latency_per_request"], d["median_end_to_end_latency"],
                            d["p99_end_to_end_latency"], d["p95_end_to_end_latency"]),
                request_throughput_rps=d["requests_per_second"],
                output_throughput_tok_s=d["system_output_throughput"],
                decode_speed_tok_s={"mean": d["average_output_speed_per_query"],
                                    "p50": d["median_output_speed_per_query"]},
                pair_key="|".join(["vllm", d["model"], "tp1", "gpu_conc-in%d-out%d" % (
                    cfg["input_tokens"], cfg["output_tokens"]), "c%d" % c,
                    "phase%ds" % cfg["phase_duration"]]),
                notes="; ".join(notes),
            ))
    return runs


# ---------------------------------------------------------------------------
# LambdaLabsML/vllm-benchmark (benchmark_serving.py --save-result, per-request arrays)
# ---------------------------------------------------------------------------

LAMBDA_DIR = os.path.join(HERE, "lambdalabs-vllm-benchmark")
LAMBDA_GPU = {"A100-80GB-SXM": "a100-sxm4-80gb", "H100-80GB-SXM": "h100-sxm"}


def lambda_runs():
    runs = []
    for root, _dirs, files in sorted(os.walk(LAMBDA_DIR)):
        for fname in sorted(files):
            if not fname.endswith(".json"):
                continue
            path = os.path.join(root, fname)
            d = json.load(open(path, encoding="utf-8"))
            gpu_dir = os.path.basename(root)                    # e.g. 1xA100-80GB-SXM
            n, gpu_written = gpu_dir.split("x", 1)
            m = re.match(r"(.+)_tp(\d+)_len(\d+)\.json$", fname)
            tp, max_len = int(m.group(2)), int(m.group(3))
            completed = d["completed"]
            # tokens per streamed chunk: generated tokens / (chunks = 1 first + one per ITL gap)
            chunks = sum(len(x) + 1 for x in d["itls"])
            per_chunk = d["total_output_tokens"] / chunks
            runs.append(run_record(
                file=rel(path),
                source="lambdalabs-vllm-benchmark",
                gpu=LAMBDA_GPU[gpu_written],
                gpu_as_written=gpu_dir,
                gpu_count=int(n),
                tp=tp,
                model=d["model_id"],
                engine="vllm",
                engine_version=None,
                server_command="python3 -m vllm.entrypoints.openai.api_server --model %s "
                               "--max-model-len %d --gpu-memory-utilization 0.95 --max-num-seqs N "
                               "(LambdaLabs benchmark.py; N and scheduler steps set by the run "
                               "script, not recorded in the result)" % (d["model_id"], max_len),
                dataset="sharegpt (ShareGPT_V3_unfiltered_cleaned_split, seed 0)",
                input_tokens=None,
                output_tokens=None,
                input_tokens_measured_mean=round(d["total_input_tokens"] / completed, 3),
                output_tokens_measured_mean=round(d["total_output_tokens"] / completed, 3),
                concurrency=None,
                request_rate=d["request_rate"],
                num_prompts=d["num_prompts"],
                completed=completed,
                ttft_ms=stat(d["mean_ttft_ms"], d["median_ttft_ms"], d["p99_ttft_ms"]),
                tpot_ms=stat(d["mean_tpot_ms"], d["median_tpot_ms"], d["p99_tpot_ms"]),
                itl_ms=stat(d["mean_itl_ms"], d["median_itl_ms"], d["p99_itl_ms"]),
                e2e_ms=stat(d["mean_latency_ms"], d["median_latency_ms"], d["p99_latency_ms"]),
                request_throughput_rps=d["request_throughput"],
                output_throughput_tok_s=d["output_throughput"],
                pair_key="|".join(["vllm", d["model_id"], "tp%d" % tp,
                                   "sharegpt-n%d" % d["num_prompts"], "rate-%s" % d["request_rate"],
                                   "benchmark_serving-lambda"]),
                notes="date %s; vLLM version not in the file; %d tokens in %d streamed chunks "
                      "(%.1f tokens per chunk), so ITL measures a chunk, not a token: multi-step "
                      "scheduling (vLLM >= 0.6.0, --num-scheduler-steps ~10) -- inferred, not "
                      "stated; the same ShareGPT prompts on both GPUs (input_lens identical)" % (
                          d["date"], d["total_output_tokens"], chunks, per_chunk),
            ))
    return runs


# runs.json: online serving runs (TTFT/TPOT/ITL measured per request by a load generator).
# runs_offline.json: offline fixed-batch runs (only the end-to-end latency of the batch).
OUTPUTS = {
    "runs.json": [gpustack_runs, dstack_r1_runs, dstack_405b_runs, gpuconc_runs,
                  lambda_runs],
    "runs_offline.json": [argonne_runs],
}


def build(fns):
    runs = []
    for fn in fns:
        runs.extend(fn())
    return runs


def dump(runs):
    return "[\n" + ",\n".join(json.dumps(r, sort_keys=False) for r in runs) + "\n]\n"


def summary(name, runs):
    by_key = {}
    for r in runs:
        by_key.setdefault(r["pair_key"], []).append(r)
    pairs = {}
    for rs in by_key.values():
        gpus = sorted(set(r["gpu"] for r in rs))
        for a in range(len(gpus)):
            for b in range(a + 1, len(gpus)):
                pk = (gpus[a], gpus[b], rs[0]["source"])
                pairs[pk] = pairs.get(pk, 0) + 1
    print("%s: %d runs, %d pair keys seen on >=2 GPUs" % (name, len(runs), sum(
        1 for rs in by_key.values() if len(set(r["gpu"] for r in rs)) > 1)))
    for (a, b, src), cnt in sorted(pairs.items()):
        print("  %-16s <-> %-16s %-38s %4d paired operating points" % (a, b, src, cnt))


def main():
    stale = False
    for name, fns in OUTPUTS.items():
        runs = build(fns)
        text = dump(runs)
        out = os.path.join(HERE, name)
        if "--check" in sys.argv:
            old = open(out, encoding="utf-8").read() if os.path.exists(out) else ""
            if old != text:
                print("%s is stale; run extract.py" % name, file=sys.stderr)
                stale = True
            continue
        with open(out, "w", encoding="utf-8") as fh:
            fh.write(text)
        summary(name, runs)
    if stale:
        sys.exit(1)


if __name__ == "__main__":
    main()
