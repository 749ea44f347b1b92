#!/usr/bin/env python3
"""Writes the hostile corpus: real files from testdata/ with one value changed so that each
breaks one plausibility rule (engine/PLAUSIBILITY.md), plus expected.tsv and README.md.

Run from anywhere with Python 3 (standard library only):

    python3 testdata/hostile/generate.py

Every case names the file it writes, the rule's words as the importer's message says them,
and where the message must point (the line and/or field). The engine test
(engine/tests/hostile.rs) and the HTTP test (server/tests/api/hostile.rs) read expected.tsv
and assert that every file is refused with a message naming the file, that place and that rule.

The generator is deterministic; rerunning it rewrites the same bytes. Files that no real
sample exists for (the generic gateway log, evaluation-set runs) start from a small base
written here in the documented schema, which the engine reads without complaint (checked by
the engine test).
"""

import copy
import json
import math
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
TESTDATA = HERE.parent
MAX_BYTES = 20 * 1024

# The rules' words, as engine/src/plausible/across.rs writes them.
PERCENTILES = "percentiles must not decrease"
MEAN = "a mean lies between the minimum and the maximum"
TTFT_E2E = "TTFT ≤ E2E"
CHUNKS = "TTFT + ΣITL ≤ E2E"
OUTCOMES = "completed + failed ≤ the requests sent"
DURATION = "a run that completed requests took time: duration > 0"
THROUGHPUT = "throughput = count ÷ duration"
END_START = "an end cannot come before its start"
CLOCK = "the duration is end − start"
CUMULATIVE = "histogram buckets are cumulative"
INF_COUNT = "it equals _count"
SUM_BUCKETS = "_sum lies between the observations' bucket edges"
UNIQUE = "a series (name and label set) appears once per scrape"
HITS = "hits ≤ queries"
AT_LEAST_ONE = "must be a whole number ≥ 1"
PERPLEXITY = "a perplexity is exp(mean negative log-likelihood)"
BITS = "bits per byte is −log₂ of a likelihood per byte"
STDERR_BOUND = "the standard error of a mean of 0–1 values is at most"
SAMPLES = "the effective samples are at most the original ones"
BATCH = "vLLM refuses max_num_batched_tokens < max_num_seqs"
REQUESTED = "vLLM's requested memory is total_gpu_memory × gpu_memory_utilization"
WEIGHTS = "the weights of one worker fit in its GPU"

# Single-field rules (engine/src/plausible.rs and the importers' own words).
LATENCY_NEG = "is not a possible latency (must be finite and ≥ 0)"
LATENCY_BIG = "is not a possible latency (must be at most 1e9 ms"
COUNT_NEG = "is not a possible count (must be finite and ≥ 0)"
COUNT_BIG = "is not a possible count (must be at most 2^53"
COUNT_WHOLE = "is not a possible count (must be a whole number)"
DURATION_NEG = "is not a possible duration (must be finite and ≥ 0)"
FRACTION = "is not a possible fraction (must be between 0 and 1)"
STDERR_NEG = "is not a possible standard error (must be finite and ≥ 0)"
RATE_NEG = "is not a possible rate (must be finite and ≥ 0)"
MEMORY = "is not a possible memory figure for one GPU"
INSTANT = "is not between 2000-01-01 and 2100-01-01"
NON_NEGATIVE_WHOLE = "expected a non-negative whole number"
WHOLE = "expected a whole number"
TOKENS = "expected a whole number of tokens ≥ 0"
TOKEN_COUNT = "expected a token count"

CASES = []


def case(kind, name, data, rule, where, what):
    """Registers one hostile file: kind/name with `data` (str or bytes)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    assert len(data) < MAX_BYTES, f"{kind}/{name}: {len(data)} bytes"
    CASES.append((kind, name, data, rule, where, what))


def real(path):
    """A real file's text as written (line ends kept: the AIPerf CSV has CRLF)."""
    return (TESTDATA / path).read_bytes().decode("utf-8")


def field(name):
    return f'field "{name}"'


def at(line, name=None):
    return f"line {line}: " + (field(name) if name else "")


# ---------------------------------------------------------------------------------------------
# vllm bench serve: JSON, JSON Lines, sweep summary, --save-detailed arrays


def vllm_cases():
    src = "er0080-vllm-benchmarking/bench_serve_v0.25.1.json"
    base = json.loads(real(src))

    def one(name, what, rule, where, **changes):
        d = copy.deepcopy(base)
        d.update(changes)
        case("vllm_bench", name + ".json", json.dumps(d, indent=2), rule, where, what)

    one("p50_above_p99_ttft", "median TTFT 5,000 ms above its p99 of 734 ms", PERCENTILES,
        field("median_ttft_ms"), median_ttft_ms=5000.0)
    one("median_tpot_above_p99", "median TPOT above its p99", PERCENTILES,
        field("median_tpot_ms"), median_tpot_ms=50.0)
    one("p99_itl_below_median", "p99 ITL 1 ms below the median", PERCENTILES,
        field("median_itl_ms"), p99_itl_ms=1.0)
    one("more_failed_than_prompts", "100 failed of 8 prompts", OUTCOMES, field("failed"),
        failed=100)
    one("more_completed_than_prompts", "9 completed of 8 prompts", OUTCOMES, field("failed"),
        completed=9)
    one("zero_duration_with_completions", "duration 0 with 8 requests completed", DURATION,
        field("duration"), duration=0.0)
    one("negative_duration", "duration −1.5 s", DURATION_NEG, field("duration"), duration=-1.5)
    one("request_throughput_off", "request_throughput 10× completed ÷ duration", THROUGHPUT,
        field("request_throughput"), request_throughput=51.80810671273421)
    one("output_throughput_off", "output_throughput not total_output_tokens ÷ duration",
        THROUGHPUT, field("output_throughput"), output_throughput=828.9297074037474)
    one("total_token_throughput_off", "total_token_throughput 2× (input + output) ÷ duration",
        THROUGHPUT, field("total_token_throughput"), total_token_throughput=497.3578244422484)
    one("completed_2_pow_53_plus_1", "completed = 2^53 + 1", COUNT_BIG, field("completed"),
        completed=2**53 + 1)
    one("completed_u64_max", "completed = 18446744073709551615 (a saturated u64)", COUNT_BIG,
        field("completed"), completed=2**64 - 1)
    one("completed_negative", "completed = −1", NON_NEGATIVE_WHOLE, field("completed"),
        completed=-1)
    one("completed_fraction", "completed = 8.5", NON_NEGATIVE_WHOLE, field("completed"),
        completed=8.5)
    one("negative_output_tokens", "total_output_tokens = −128", NON_NEGATIVE_WHOLE,
        field("total_output_tokens"), total_output_tokens=-128)
    one("input_tokens_1e20", "total_input_tokens = 1e20", COUNT_BIG,
        field("total_input_tokens"), total_input_tokens=1e20)
    one("negative_ttft", "mean TTFT −12.5 ms", LATENCY_NEG, field("mean_ttft_ms"),
        mean_ttft_ms=-12.5)
    one("ttft_1e308", "p99 TTFT 1e308 ms", LATENCY_BIG, field("p99_ttft_ms"), p99_ttft_ms=1e308)
    one("zero_concurrency", "max_concurrency 0", AT_LEAST_ONE, field("max_concurrency"),
        max_concurrency=0)

    # A sweep run with E2E statistics: TTFT against E2E.
    run = "er0080-vllm-benchmarking/sweep_v0.25.1/SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8/run=0.json"
    rbase = json.loads(real(run))
    d = copy.deepcopy(rbase)
    d["mean_ttft_ms"] = 1680543.782
    d["p99_ttft_ms"] = 1680543.782 * 2
    case("vllm_bench", "ttft_mean_above_e2e_mean.json", json.dumps(d, indent=2), TTFT_E2E,
         field("mean_ttft_ms"), "mean TTFT 1,680,544 ms against a mean E2E of a few hundred ms "
         "(µs written as ms)")
    d = copy.deepcopy(rbase)
    d["p99_ttft_ms"] = d["p99_e2el_ms"] * 1.5
    case("vllm_bench", "ttft_p99_above_e2e_p99.json", json.dumps(d, indent=2), TTFT_E2E,
         field("p99_ttft_ms"), "p99 TTFT 1.5× the p99 E2E")

    # 2024 key names (latency) and per-request arrays.
    lam = "lambdalabs-vllm-benchmark/Meta-Llama-3-8B-Instruct_tp1_len2048.json"
    lbase = json.loads(real(lam))

    def lam_case(name, what, rule, where, change):
        d = copy.deepcopy(lbase)
        change(d)
        case("vllm_bench", name + ".json", json.dumps(d), rule, where, what)

    lam_case("ttft_above_latency_2024", "mean TTFT above mean latency (2024 keys)", TTFT_E2E,
             field("mean_ttft_ms"), lambda d: d.update(mean_ttft_ms=1500.0, p99_ttft_ms=1600.0))
    lam_case("p99_latency_below_median", "p99 latency below the median", PERCENTILES,
             field("median_latency_ms"), lambda d: d.update(p99_latency_ms=800.0))
    lam_case("negative_ttft_array", "ttfts[2] = −0.05 s", LATENCY_NEG, field("ttfts[2]"),
             lambda d: d["ttfts"].__setitem__(2, -0.05))
    lam_case("negative_output_len", "output_lens[3] = −7", TOKEN_COUNT,
             field("output_lens[3]"), lambda d: d["output_lens"].__setitem__(3, -7))
    lam_case("fractional_output_len", "output_lens[4] = 1.5", TOKEN_COUNT,
             field("output_lens[4]"), lambda d: d["output_lens"].__setitem__(4, 1.5))
    lam_case("input_len_2_pow_53_plus_1", "input_lens[0] = 2^53 + 1", COUNT_BIG,
             field("input_lens[0]"), lambda d: d["input_lens"].__setitem__(0, 2**53 + 1))
    lam_case("itl_nan", "itls[1][2] = NaN (Python's json.dump; a NaN may only stand for a "
             "missing statistic)", "invalid JSON", "line 1: ",
             lambda d: d["itls"][1].__setitem__(2, math.nan))
    lam_case("zero_duration_2024", "duration 0 with 10 requests completed", DURATION,
             field("duration"), lambda d: d.update(duration=0.0))

    # JSON Lines (--append-result): the line is named.
    jl = real("nerdalert-vllm-benchmark-graphs/results.json").splitlines()

    def line_case(name, what, rule, line, key, value):
        lines = list(jl)
        d = json.loads(lines[line - 1])
        d[key] = value
        lines[line - 1] = json.dumps(d)
        case("vllm_bench", name + ".jsonl", "\n".join(lines) + "\n", rule, at(line, key), what)

    line_case("jsonl_line3_p50_above_p99", "line 3: median TTFT above its p99", PERCENTILES, 3,
              "median_ttft_ms", 1e4)
    line_case("jsonl_line5_zero_duration", "line 5: duration 0 with completions", DURATION, 5,
              "duration", 0.0)
    line_case("jsonl_line12_throughput_off", "line 12: request_throughput 3× too high",
              THROUGHPUT, 12, "request_throughput", 30.0)
    line_case("jsonl_line7_failed_above_prompts", "line 7: 500 failed of 120 prompts", OUTCOMES,
              7, "failed", 500)

    # A sweep's summary.json: a list; the item is named.
    summ = json.loads(real(
        "er0080-vllm-benchmarking/sweep_v0.25.1/SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8/summary.json"))
    d = copy.deepcopy(summ)
    d[1]["failed"] = 20
    case("vllm_bench", "summary_item1_failed_above_prompts.json", json.dumps(d, indent=2),
         OUTCOMES, field("[1].failed"), "summary.json item 1: 20 failed of 8 prompts")
    d = copy.deepcopy(summ)
    d[0]["median_e2el_ms"] = d[0]["p99_e2el_ms"] * 3
    case("vllm_bench", "summary_item0_e2e_median_above_p99.json", json.dumps(d, indent=2),
         PERCENTILES, field("[0].median_e2el_ms"), "summary.json item 0: median E2E above p99")


# ---------------------------------------------------------------------------------------------
# AIPerf / GenAI-Perf summary JSON


def aiperf_json_cases():
    flat = json.loads(real("akamaslabs-aiperf-sweep/concurrency_16/profile_export_aiperf.json"))
    early = json.loads(real("aiperf-examples-run1/profile_export_aiperf.json"))
    smoke = json.loads(real("aiperf-dev-smoke-100k/profile_export_aiperf.json"))

    def write(name, d, rule, where, what):
        case("aiperf_json", name + ".json", json.dumps(d, indent=2), rule, where, what)

    def flat_case(name, what, rule, where, change):
        d = copy.deepcopy(flat)
        change(d)
        write(name, d, rule, where, what)

    def early_case(name, what, rule, where, change):
        d = copy.deepcopy(early)
        change(d)
        write(name, d, rule, where, what)

    ttft = "time_to_first_token"
    flat_case("ttft_p50_above_p99", "TTFT p50 above p99", PERCENTILES, field(f"{ttft}.p50"),
              lambda d: d[ttft].update(p50=d[ttft]["p99"] * 10))
    flat_case("ttft_avg_below_min", "TTFT avg below min", MEAN, field(f"{ttft}.avg"),
              lambda d: d[ttft].update(avg=d[ttft]["min"] / 2))
    flat_case("e2e_avg_above_max", "request_latency avg above max", MEAN,
              field("request_latency.avg"),
              lambda d: d["request_latency"].update(avg=d["request_latency"]["max"] * 2))
    flat_case("itl_min_above_p1", "inter_token_latency min above p1", PERCENTILES,
              field("inter_token_latency.min"),
              lambda d: d["inter_token_latency"].update(min=d["inter_token_latency"]["p5"]))
    flat_case("e2e_p90_above_p95", "request_latency p90 above p95", PERCENTILES,
              field("request_latency.p90"),
              lambda d: d["request_latency"].update(p90=d["request_latency"]["p95"] * 1.1))
    flat_case("osl_p50_above_max", "output_sequence_length p50 above max", PERCENTILES,
              field("output_sequence_length.p50"),
              lambda d: d["output_sequence_length"].update(
                  p50=d["output_sequence_length"]["max"] + 100))

    flat_case("ttft_in_us_above_e2e", "every TTFT statistic ×1000 (µs written as ms)", TTFT_E2E,
              field(f"{ttft}.max"), lambda d: _scale_block(d[ttft], 1000))
    flat_case("zero_duration_with_completions", "benchmark_duration 0 with 2,044 completed",
              DURATION, field("benchmark_duration.avg"),
              lambda d: d["benchmark_duration"].update(avg=0.0))
    flat_case("request_throughput_off", "request_throughput 10× request_count ÷ duration",
              THROUGHPUT, field("request_throughput.avg"),
              lambda d: d["request_throughput"].update(avg=d["request_throughput"]["avg"] * 10))
    flat_case("output_throughput_off", "output_token_throughput half of total_osl ÷ duration",
              THROUGHPUT, field("output_token_throughput.avg"),
              lambda d: d["output_token_throughput"].update(
                  avg=d["output_token_throughput"]["avg"] / 2))
    flat_case("zero_concurrency", "profiling phase concurrency 0", AT_LEAST_ONE,
              field("input_config.phases[0].concurrency"),
              lambda d: d["input_config"]["phases"][0].update(concurrency=0))
    flat_case("negative_ttft_p99", "TTFT p99 −5 ms", LATENCY_NEG, field(f"{ttft}.p99"),
              lambda d: d[ttft].update(p99=-5.0))
    flat_case("negative_block_count", "TTFT count −3", NON_NEGATIVE_WHOLE,
              field(f"{ttft}.count"), lambda d: d[ttft].update(count=-3))
    flat_case("total_osl_1e20", "total_osl 1e20 tokens", COUNT_BIG, field("total_osl.avg"),
              lambda d: d["total_osl"].update(avg=1e20))
    flat_case("request_count_u64_max", "request_count 18446744073709551615", COUNT_BIG,
              field("request_count.avg"), lambda d: d["request_count"].update(avg=2**64 - 1))
    flat_case("request_count_negative", "request_count −1", COUNT_NEG,
              field("request_count.avg"), lambda d: d["request_count"].update(avg=-1.0))
    flat_case("request_count_fraction", "request_count 2044.5", WHOLE, field("request_count.avg"),
              lambda d: d["request_count"].update(avg=2044.5))

    rec = "records"
    early_case("early_ttft_in_us_above_e2e", "early layout: TTFT statistics ×1000", TTFT_E2E,
               field(f"{rec}.ttft.max"),
               lambda d: _scale_block(d[rec]["ttft"], 1000))
    early_case("early_timestamp_zero", "min_request_timestamp 0 ns (1970)", INSTANT,
               field(f"{rec}.min_request_timestamp.avg"),
               lambda d: d[rec]["min_request_timestamp"].update(avg=0))
    early_case("early_response_before_request", "max_response_timestamp before min_request_timestamp",
               END_START, field(f"{rec}.max_response_timestamp.avg"),
               lambda d: d[rec]["max_response_timestamp"].update(
                   avg=d[rec]["min_request_timestamp"]["avg"] - 5e9))
    early_case("early_duration_not_clock", "benchmark_duration 10× max − min timestamp", CLOCK,
               field(f"{rec}.benchmark_duration.avg"),
               lambda d: d[rec]["benchmark_duration"].update(
                   avg=d[rec]["benchmark_duration"]["avg"] * 10))
    early_case("early_more_errors_than_sent", "1,000 errors of 100 requests sent", OUTCOMES,
               field(f"{rec}.error_request_count.avg"),
               lambda d: d[rec]["error_request_count"].update(avg=1000.0))
    d = copy.deepcopy(smoke)
    d["error_request_count"]["avg"] = 600000.0
    write("phase_more_errors_than_requests", d, OUTCOMES, field("error_request_count.avg"),
          "600,000 errors of the profiling phase's 500,000 requests")


def _scale_block(block, factor):
    for k, v in list(block.items()):
        if isinstance(v, (int, float)) and not isinstance(v, bool) and k not in ("count", "sum"):
            block[k] = v * factor


# ---------------------------------------------------------------------------------------------
# AIPerf summary CSV


def aiperf_csv_cases():
    text = real("aiperf-examples-run1/profile_export_aiperf.csv")
    rows = text.split("\r\n")
    header = rows[0].split(",")

    def row_of(label):
        return next(i for i, r in enumerate(rows) if r.split(",")[0] == label)

    def change(name, what, rule, label, column, value, where_col=None):
        out = list(rows)
        i = row_of(label)
        cells = out[i].split(",")
        cols = ["Metric", "Value"] if len(cells) == 2 else header
        j = cols.index(column)
        cells[j] = value if isinstance(value, str) else fmt2(value(float(cells[j])))
        out[i] = ",".join(cells)
        col = where_col or (column.lower() if column != "Value" else "avg")
        case("aiperf_csv", name + ".csv", "\r\n".join(out), rule, at(i + 1, f"{label}.{col}"),
             what)

    def fmt2(v):
        return f"{v:.2f}"

    ttft, e2e, itl = "Time to First Token (ms)", "Request Latency (ms)", "Inter Token Latency (ms)"
    change("ttft_p50_above_p90", "TTFT p50 above p90", PERCENTILES, ttft, "p50", lambda v: v * 2)
    change("e2e_avg_below_min", "request latency avg below min", MEAN, e2e, "avg",
           lambda v: v / 2)
    change("itl_p99_above_max", "ITL p99 above max", PERCENTILES, itl, "p99", lambda v: v * 2)
    change("ttst_avg_above_max", "TTST avg above max", MEAN, "Time to Second Token (ms)", "avg",
           lambda v: v * 10)
    change("icl_min_above_p1", "inter chunk latency min above p1", PERCENTILES,
           "Inter Chunk Latency (ms)", "min", lambda v: v * 10)
    change("osl_p75_above_p90", "output sequence length p75 above p90", PERCENTILES,
           "Output Sequence Length (tokens)", "p75", lambda v: v + 100)
    change("ttft_nan", "TTFT avg NaN", LATENCY_NEG, ttft, "avg", "NaN")
    change("ttft_inf", "TTFT p99 inf", LATENCY_BIG, ttft, "p99", "inf")
    change("isl_negative", "input sequence length min −550", COUNT_NEG,
           "Input Sequence Length (tokens)", "min", lambda v: -v)
    change("request_count_negative", "Request Count −5", COUNT_NEG, "Request Count", "Value",
           "-5.00")
    change("request_count_u64_max", "Request Count 18446744073709551615", COUNT_BIG,
           "Request Count", "Value", "18446744073709551615.00")
    change("request_count_fraction", "Request Count 89.50", WHOLE, "Request Count", "Value",
           "89.50")
    change("error_count_negative", "Error Request Count −11", COUNT_NEG, "Error Request Count",
           "Value", "-11.00")
    change("request_throughput_off", "Request Throughput 10×", THROUGHPUT,
           "Request Throughput (requests/sec)", "Value", lambda v: v * 10)
    change("output_throughput_off", "Output Token Throughput half of Total OSL ÷ duration",
           THROUGHPUT, "Output Token Throughput (tokens/sec)", "Value", lambda v: v / 2)
    change("timestamp_zero", "Minimum Request Timestamp 0 ns", INSTANT,
           "Minimum Request Timestamp (ns)", "Value", "0.00")
    change("response_before_request", "Maximum Response Timestamp 5 s before the first request",
           END_START, "Maximum Response Timestamp (ns)", "Value", "1759522414154568960.00")
    change("duration_not_clock", "Benchmark Duration 0.00 s against 9.3 s of timestamps", CLOCK,
           "Benchmark Duration (sec)", "Value", "0.00")

    out = list(rows)
    for label in (ttft,):
        i = row_of(label)
        cells = out[i].split(",")
        cells[1:] = [fmt2(float(c) * 1000) for c in cells[1:]]
        out[i] = ",".join(cells)
    case("aiperf_csv", "ttft_in_us_above_e2e.csv", "\r\n".join(out), TTFT_E2E,
         at(row_of(ttft) + 1, f"{ttft}.max"), "every TTFT statistic ×1000 (µs written as ms)")


# ---------------------------------------------------------------------------------------------
# AIPerf per-request JSONL


def aiperf_jsonl_cases():
    lines = real("aiperf-examples-run1/profile_export.head12.jsonl").splitlines()

    def change(name, what, rule, line, where_field, mutate):
        out = list(lines)
        d = json.loads(out[line - 1])
        mutate(d)
        out[line - 1] = json.dumps(d, separators=(",", ":"))
        case("aiperf_jsonl", name + ".jsonl", "\n".join(out) + "\n", rule,
             at(line, where_field), what)

    m = lambda d: d["metrics"]  # noqa: E731
    change("timestamp_ns_zero", "line 1: timestamp_ns 0 (a 55-year duration)", INSTANT, 1,
           "metadata.timestamp_ns", lambda d: d["metadata"].update(timestamp_ns=0))
    change("timestamp_in_us", "line 5: timestamp_ns in µs (1970-01-21)", INSTANT, 5,
           "metadata.timestamp_ns",
           lambda d: d["metadata"].update(timestamp_ns=d["metadata"]["timestamp_ns"] // 1000))
    change("timestamp_year_2100", "line 3: timestamp_ns after 2100", INSTANT, 3,
           "metadata.timestamp_ns", lambda d: d["metadata"].update(timestamp_ns=4102444800000000001))
    change("ttft_above_e2e", "TTFT 1,680,544 ms against an E2E of 7,937 ms", TTFT_E2E, 12,
           "metrics.ttft.value", lambda d: m(d)["ttft"].update(value=1680543.782))
    change("chunks_beyond_e2e", "request_latency 5,000 ms below TTFT + Σ chunk gaps", CHUNKS, 12,
           "metrics.inter_chunk_latency.value", lambda d: m(d)["request_latency"].update(value=5000.0))
    change("negative_chunk_gap", "inter_chunk_latency[3] −2 ms", LATENCY_NEG, 12,
           "metrics.inter_chunk_latency.value[3]",
           lambda d: m(d)["inter_chunk_latency"]["value"].__setitem__(3, -2.0))
    change("chunk_gap_nan", "inter_chunk_latency[0] NaN", "invalid JSON", 12, None,
           lambda d: m(d)["inter_chunk_latency"]["value"].__setitem__(0, math.nan))
    change("negative_ttft", "TTFT −1 ms", LATENCY_NEG, 12, "metrics.ttft.value",
           lambda d: m(d)["ttft"].update(value=-1.0))
    change("ttst_1e12", "TTST 1e12 ms", LATENCY_BIG, 12, "metrics.ttst.value",
           lambda d: m(d)["ttst"].update(value=1e12))
    change("negative_isl", "input_sequence_length −550", COUNT_NEG, 12,
           "metrics.input_sequence_length.value",
           lambda d: m(d)["input_sequence_length"].update(value=-550))
    change("fractional_isl", "input_sequence_length 550.5", COUNT_WHOLE, 12,
           "metrics.input_sequence_length.value",
           lambda d: m(d)["input_sequence_length"].update(value=550.5))
    change("osl_1e17", "output_sequence_length 1e17", COUNT_BIG, 12,
           "metrics.output_sequence_length.value",
           lambda d: m(d)["output_sequence_length"].update(value=1e17))
    change("negative_reasoning_tokens", "reasoning_token_count −132", COUNT_NEG, 12,
           "metrics.reasoning_token_count.value",
           lambda d: m(d)["reasoning_token_count"].update(value=-132))
    change("negative_itl", "inter_token_latency −3 ms", LATENCY_NEG, 12,
           "metrics.inter_token_latency.value",
           lambda d: m(d)["inter_token_latency"].update(value=-3.0))
    change("min_request_timestamp_zero", "min_request_timestamp 0 ns", INSTANT, 12,
           "metrics.min_request_timestamp.value",
           lambda d: m(d)["min_request_timestamp"].update(value=0))
    change("response_before_request", "max_response_timestamp before timestamp_ns", END_START, 12,
           "metrics.max_response_timestamp.value",
           lambda d: m(d)["max_response_timestamp"].update(value=d["metadata"]["timestamp_ns"] - 10**9))
    change("negative_per_user_throughput", "output_token_throughput_per_user −36", RATE_NEG, 12,
           "metrics.output_token_throughput_per_user.value",
           lambda d: m(d)["output_token_throughput_per_user"].update(value=-36.0))


# ---------------------------------------------------------------------------------------------
# guidellm JSON and YAML


def guidellm_base():
    """The repository's guidellm report, trimmed below 20 KB to what the importer reads: each
    metric keeps its `successful` distribution (the errored / incomplete / total ones go) and
    the request's prompt and output texts go. Every remaining value is the file's."""
    d = json.loads(real("guidellm-repo-tests/benchmarks_stripped.json"))
    for b in d["benchmarks"]:
        for m in b["metrics"].values():
            for status in ("errored", "incomplete", "total"):
                m.pop(status, None)
        for req in (b.get("requests") or {}).get("successful") or []:
            req["prompt"] = req["prompt"][:40]
            req["output"] = req["output"][:40]
    return d


def guidellm_cases():
    base = guidellm_base()
    b0 = "benchmarks[0]"
    met = f"{b0}.metrics"

    def change(name, what, rule, where, mutate):
        d = copy.deepcopy(base)
        mutate(d["benchmarks"][0])
        case("guidellm", name + ".json", json.dumps(d, indent=1), rule, where, what)

    def succ(b, metric):
        return b["metrics"][metric]["successful"]

    ttft, e2e = "time_to_first_token_ms", "request_latency"
    change("ttft_p95_above_p99", "TTFT p95 above p99", PERCENTILES,
           field(f"{met}.{ttft}.successful.percentiles.p95"),
           lambda b: succ(b, ttft)["percentiles"].update(p95=succ(b, ttft)["percentiles"]["p99"] + 1))
    change("e2e_median_above_max", "request_latency median above max", PERCENTILES,
           field(f"{met}.{e2e}.successful.median"),
           lambda b: succ(b, e2e).update(median=succ(b, e2e)["max"] * 2))
    change("ttft_mean_below_min", "TTFT mean below min", MEAN, field(f"{met}.{ttft}.successful.mean"),
           lambda b: succ(b, ttft).update(mean=succ(b, ttft)["min"] / 2))
    change("itl_mean_above_max", "inter_token_latency mean above max", MEAN,
           field(f"{met}.inter_token_latency_ms.successful.mean"),
           lambda b: succ(b, "inter_token_latency_ms").update(
               mean=succ(b, "inter_token_latency_ms")["max"] * 3))
    change("prompt_tokens_min_above_p01", "prompt_token_count min above p001", PERCENTILES,
           field(f"{met}.prompt_token_count.successful.min"),
           lambda b: succ(b, "prompt_token_count").update(min=300))

    def ttft_over_e2e(b):
        s = succ(b, ttft)
        s["max"] = succ(b, e2e)["max"] * 1000 * 2
    change("ttft_max_above_e2e_max", "TTFT max twice the request latency max", TTFT_E2E,
           field(f"{met}.{ttft}.successful.max"), ttft_over_e2e)
    change("totals_above_total", "46 successful + 1 incomplete of a total of 40", OUTCOMES,
           field(f"{b0}.request_totals.errored"), lambda b: b["request_totals"].update(total=40))
    change("duration_not_clock", "duration 0 against 30 s from start_time to end_time", CLOCK,
           field(f"{b0}.duration"), lambda b: b.update(duration=0.0))
    change("start_time_zero", "start_time 0 (1970)", INSTANT, field(f"{b0}.start_time"),
           lambda b: b.update(start_time=0.0))
    change("request_start_zero", "a request's start_time 0 (1970)", INSTANT,
           field(f"{b0}.requests.successful[0].start_time"),
           lambda b: b["requests"]["successful"][0].update(start_time=0.0))
    change("end_before_start", "end_time before start_time", END_START, field(f"{b0}.end_time"),
           lambda b: b.update(end_time=b["start_time"] - 30))
    change("negative_duration", "duration −5 s", DURATION_NEG, field(f"{b0}.duration"),
           lambda b: b.update(duration=-5.0))
    change("successful_negative", "request_totals.successful −1", NON_NEGATIVE_WHOLE,
           field(f"{b0}.request_totals.successful"),
           lambda b: b["request_totals"].update(successful=-1))
    change("successful_2_pow_53_plus_1", "request_totals.successful 2^53 + 1", COUNT_BIG,
           field(f"{b0}.request_totals.successful"),
           lambda b: b["request_totals"].update(successful=2**53 + 1))
    change("zero_streams", "strategy streams 0", AT_LEAST_ONE, field(f"{b0}.args.strategy.streams"),
           lambda b: b["args"]["strategy"].update(streams=0))
    change("request_ttft_above_latency", "a request's TTFT above its latency", TTFT_E2E,
           field(f"{b0}.requests.successful[0].time_to_first_token_ms"),
           lambda b: b["requests"]["successful"][0].update(time_to_first_token_ms=900.0))
    change("request_negative_prompt_tokens", "a request's prompt_tokens −3", NON_NEGATIVE_WHOLE,
           field(f"{b0}.requests.successful[0].prompt_tokens"),
           lambda b: b["requests"]["successful"][0].update(prompt_tokens=-3))
    change("output_total_sum_1e20", "output_token_count total_sum 1e20", COUNT_BIG,
           field(f"{met}.output_token_count.successful.total_sum"),
           lambda b: succ(b, "output_token_count").update(total_sum=1e20))
    change("negative_ttft_p50", "TTFT median −16 ms", LATENCY_NEG,
           field(f"{met}.{ttft}.successful.median"),
           lambda b: succ(b, ttft).update(median=-16.0))

    # The YAML twin: the same report as guidellm writes it (benchmarks.yaml), edited by line.
    yaml_lines = trimmed_yaml()

    def ychange(name, what, rule, where, path, value):
        out = list(yaml_lines)
        i = yaml_line(out, path)
        key = out[i].split(":", 1)[0]
        out[i] = f"{key}: {value}"
        case("guidellm", name + ".yaml", "\n".join(out) + "\n", rule, where, what)

    ychange("yaml_ttft_mean_below_min", "YAML: TTFT mean below min", MEAN,
            field(f"{met}.{ttft}.successful.mean"),
            ["metrics", ttft, "successful", "mean"], "1.5")
    ychange("yaml_e2e_p95_above_p99", "YAML: request_latency p95 above p99", PERCENTILES,
            field(f"{met}.{e2e}.successful.percentiles.p95"),
            ["metrics", e2e, "successful", "percentiles", "p95"], "9.5")
    ychange("yaml_totals_above_total", "YAML: outcomes above the total", OUTCOMES,
            field(f"{b0}.request_totals.errored"), ["request_totals", "total"], "10")
    ychange("yaml_ttft_max_above_e2e", "YAML: TTFT max 9,000 ms above a latency max below 1 s",
            TTFT_E2E, field(f"{met}.{ttft}.successful.max"),
            ["metrics", ttft, "successful", "max"], "9000.0")
    ychange("yaml_duration_not_clock", "YAML: duration 300 s against 30 s of clock", CLOCK,
            field(f"{b0}.duration"), ["duration"], "300.0")


def trimmed_yaml():
    """The YAML report's lines without the metrics' errored / incomplete / total distributions
    (as guidellm_base does for the JSON) and with the request texts cut."""
    lines = real("guidellm-repo-tests/benchmarks_stripped.yaml").splitlines()
    out = []
    skip_indent = None
    in_metrics = False
    for line in lines:
        indent = len(line) - len(line.lstrip(" "))
        stripped = line.strip()
        if skip_indent is not None:
            if stripped and indent <= skip_indent:
                skip_indent = None
            else:
                continue
        if stripped == "metrics:" and indent == 2:
            in_metrics = True
        elif indent <= 2 and stripped and not line.startswith("    ") and stripped != "metrics:":
            in_metrics = in_metrics and indent > 2
        if in_metrics and indent == 6 and stripped in ("errored:", "incomplete:", "total:"):
            skip_indent = indent
            continue
        if stripped.startswith(("prompt:", "output:")) and indent == 6:
            key = stripped.split(":", 1)[0]
            out.append(" " * indent + f"{key}: cut")
            skip_indent = indent
            continue
        out.append(line)
    return out


def yaml_line(lines, path):
    """The index of the line holding the key at `path` under `benchmarks[0]`."""
    depth_indent = 2
    start = 0
    for depth, key in enumerate(path):
        want = depth_indent + 2 * depth
        for i in range(start, len(lines)):
            line = lines[i]
            indent = len(line) - len(line.lstrip(" "))
            if indent == want and line.strip().startswith(key + ":"):
                start = i + 1
                break
        else:
            raise KeyError(path)
    return start - 1


# ---------------------------------------------------------------------------------------------
# vLLM /metrics scrape


READ_FAMILIES = {
    "vllm:num_requests_running", "vllm:num_requests_waiting", "vllm:kv_cache_usage_perc",
    "vllm:num_preemptions", "vllm:prompt_tokens", "vllm:generation_tokens",
    "vllm:request_success", "vllm:prefix_cache_queries", "vllm:prefix_cache_hits",
    "vllm:cache_config_info", "vllm:time_to_first_token_seconds",
    "vllm:e2e_request_latency_seconds", "vllm:request_generation_tokens",
}


def scrape_base():
    """The loaded vLLM 0.25.1 scrape, trimmed below 20 KB to the families the vLLM reader uses
    (every line of them as scraped)."""
    keep = False
    out = []
    for line in real("er0080-vllm-benchmarking/metrics_vllm_0_25_1_loaded.txt").splitlines():
        if line.startswith(("# HELP ", "# TYPE ")):
            name = line.split()[2]
            keep = name in READ_FAMILIES or name.removesuffix("_total") in READ_FAMILIES
        if keep:
            out.append(line)
    return out


def series(line):
    """`name{k="v",…}` as the engine names a sample: labels sorted."""
    body = line.split(" ")[0] if "{" not in line else line[: line.index("}") + 1]
    if "{" not in body:
        return body
    name, labels = body[:-1].split("{", 1)
    pairs = []
    for part in split_labels(labels):
        k, v = part.split("=", 1)
        pairs.append((k, v))
    pairs.sort()
    return name + "{" + ",".join(f"{k}={v}" for k, v in pairs) + "}"


def split_labels(text):
    parts, cur, quoted = [], "", False
    for c in text:
        if c == '"':
            quoted = not quoted
        if c == "," and not quoted:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    if cur:
        parts.append(cur)
    return parts


def metrics_cases():
    base = scrape_base()

    def idx(prefix):
        return next(i for i, l in enumerate(base) if l.startswith(prefix))

    def value_of(line):
        return float(line.rsplit(" ", 1)[1])

    def set_value(line, v):
        return line.rsplit(" ", 1)[0] + " " + v

    def change(name, what, rule, where, edit):
        out = list(base)
        edit(out)
        case("metrics_scrape", name + ".txt", "\n".join(out) + "\n", rule, where, what)

    def where_line(out, i):
        return f'line {i + 1}: field "{series(out[i])}"'

    e2e_bucket = 'vllm:e2e_request_latency_seconds_bucket{engine="0",le="'
    b08, b10 = idx(e2e_bucket + '0.8"'), idx(e2e_bucket + '1.0"')
    change("bucket_decreases", "le=1.0 bucket 5 below le=0.8's 23", CUMULATIVE,
           where_line(base, b08), lambda o: o.__setitem__(b10, set_value(o[b10], "5.0")))
    ecount = idx("vllm:e2e_request_latency_seconds_count")
    change("inf_bucket_not_count", "_count 601 against a +Inf bucket of 600", INF_COUNT,
           where_line(base, ecount), lambda o: o.__setitem__(ecount, set_value(o[ecount], "601.0")))
    esum = idx("vllm:e2e_request_latency_seconds_sum")
    change("sum_beyond_buckets", "_sum 5,000 s for 600 requests all under 2.5 s", SUM_BUCKETS,
           where_line(base, esum), lambda o: o.__setitem__(esum, set_value(o[esum], "5000.0")))
    change("sum_below_buckets", "_sum 10 s for 591 requests above 1.5 s", SUM_BUCKETS,
           where_line(base, esum), lambda o: o.__setitem__(esum, set_value(o[esum], "10.0")))
    inf = idx(e2e_bucket + '+Inf"')
    e2e_buckets = [i for i, l in enumerate(base) if l.startswith(e2e_bucket)]
    first_above = next(i for i in e2e_buckets if value_of(base[i]) > 599)
    change("inf_bucket_below_finite", "+Inf bucket and _count 599 below the finite buckets' 600",
           CUMULATIVE, where_line(base, first_above),
           lambda o: (o.__setitem__(inf, set_value(o[inf], "599.0")),
                      o.__setitem__(ecount, set_value(o[ecount], "599.0"))))
    t_bucket = 'vllm:time_to_first_token_seconds_bucket{engine="0",le="'
    tlines = [i for i, l in enumerate(base) if l.startswith(t_bucket)]
    mid = next(i for i in tlines if value_of(base[i]) > 0)
    prev = tlines[tlines.index(mid) - 1]
    change("ttft_bucket_decreases", "a TTFT bucket below the one before it", CUMULATIVE,
           where_line(base, mid),
           lambda o: o.__setitem__(tlines[tlines.index(mid) + 1], set_value(o[tlines[tlines.index(mid) + 1]], "0.0")))
    gcount = idx("vllm:request_generation_tokens_count")
    change("generation_count_not_inf", "generation-token histogram _count 10 above +Inf", INF_COUNT,
           where_line(base, gcount),
           lambda o: o.__setitem__(gcount, set_value(o[gcount], str(value_of(o[gcount]) + 10))))

    running = idx("vllm:num_requests_running{")
    change("duplicate_gauge_series", "vllm:num_requests_running written twice", UNIQUE,
           f'line {running + 2}: field "{series(base[running])}"',
           lambda o: o.insert(running + 1, o[running]))
    change("duplicate_bucket_series", "an e2e bucket line written twice", UNIQUE,
           f'line {b08 + 2}: field "{series(base[b08])}"', lambda o: o.insert(b08 + 1, o[b08]))
    prompt = idx("vllm:prompt_tokens_total{")
    name_prompt = base[prompt].split("{")[0]

    def counter(v):
        return lambda o: o.__setitem__(prompt, set_value(o[prompt], v))

    change("counter_negative", "vllm:prompt_tokens_total −5", COUNT_NEG,
           f"line {prompt + 1}: {name_prompt}", counter("-5.0"))
    change("counter_nan", "vllm:prompt_tokens_total NaN", COUNT_NEG,
           f"line {prompt + 1}: {name_prompt}", counter("NaN"))
    change("counter_inf", "vllm:prompt_tokens_total +Inf", COUNT_BIG,
           f"line {prompt + 1}: {name_prompt}", counter("+Inf"))
    change("counter_1e308", "vllm:prompt_tokens_total 1e308", COUNT_BIG,
           f"line {prompt + 1}: {name_prompt}", counter("1e308"))
    change("counter_1e16", "vllm:prompt_tokens_total 1e16 (beyond 2^53)", COUNT_BIG,
           f"line {prompt + 1}: {name_prompt}", counter("1e16"))
    success = [i for i, l in enumerate(base) if l.startswith("vllm:request_success_total{")]
    stop = next(i for i in success if 'finished_reason="stop"' in base[i])

    def two_engines(o):
        o[stop] = set_value(o[stop], "6e15")
        o.insert(stop + 1, set_value(o[stop].replace('engine="0"', 'engine="1"'), "6e15"))
    change("sum_over_series_beyond_2_pow_53", "two engines' stop counts of 6e15 each",
           "more than 2^53", 'vllm:request_success_total{finished_reason="stop"}', two_engines)
    kv = idx("vllm:kv_cache_usage_perc{")
    change("kv_usage_above_one", "vllm:kv_cache_usage_perc 1.5", FRACTION,
           "vllm:kv_cache_usage_perc", lambda o: o.__setitem__(kv, set_value(o[kv], "1.5")))
    waiting = idx("vllm:num_requests_waiting{")
    change("waiting_negative", "vllm:num_requests_waiting −3", COUNT_NEG,
           "vllm:num_requests_waiting", lambda o: o.__setitem__(waiting, set_value(o[waiting], "-3.0")))
    cfg = idx("vllm:cache_config_info{")

    def label(key, old_new):
        def edit(o):
            line = o[cfg]
            start = line.index(f'{key}="') + len(key) + 2
            end = line.index('"', start)
            o[cfg] = line[:start] + old_new + line[end:]
        return edit
    change("utilisation_above_one", "cache_config_info gpu_memory_utilization 1.5", FRACTION,
           "gpu_memory_utilization", label("gpu_memory_utilization", "1.5"))
    change("block_size_zero", "cache_config_info block_size 0", AT_LEAST_ONE,
           field("vllm:cache_config_info{block_size}"), label("block_size", "0"))
    change("gpu_blocks_zero", "cache_config_info num_gpu_blocks 0", AT_LEAST_ONE,
           field("vllm:cache_config_info{num_gpu_blocks}"), label("num_gpu_blocks", "0"))
    hits = idx("vllm:prefix_cache_hits_total{")
    queries = idx("vllm:prefix_cache_queries_total{")
    change("hits_above_queries", "prefix-cache hits above queries", HITS,
           field("vllm:prefix_cache_hits"),
           lambda o: o.__setitem__(hits, set_value(o[hits], str(value_of(o[queries]) + 100))))
    change("timestamp_zero", "a sample with timestamp 0 (1970)", INSTANT,
           f"line {running + 1}: vllm:num_requests_running",
           lambda o: o.__setitem__(running, o[running] + " 0"))
    change("timestamp_in_ns", "a sample timestamp in ns (year 55,000)", INSTANT,
           f"line {running + 1}: vllm:num_requests_running",
           lambda o: o.__setitem__(running, o[running] + " 1786929018621569400"))
    change("missing_inf_bucket", "an e2e series without its +Inf bucket", "ends mid-histogram",
           "vllm:e2e_request_latency_seconds", lambda o: o.pop(inf))


# ---------------------------------------------------------------------------------------------
# Gateway logs: the generic schema (JSON Lines) and LiteLLM's StandardLoggingPayload

GENERIC = [
    {"request_id": "r1", "start_time": "2026-03-02T09:00:00.120Z", "first_token_time": "2026-03-02T09:00:00.410Z",
     "end_time": "2026-03-02T09:00:03.950Z", "model": "Qwen/Qwen3-8B", "prompt_tokens": 812,
     "completion_tokens": 164, "status": "ok", "finish_reason": "stop"},
    {"request_id": "r2", "start_time": "2026-03-02T09:00:01.005Z", "first_token_time": "2026-03-02T09:00:01.260Z",
     "end_time": "2026-03-02T09:00:06.880Z", "model": "Qwen/Qwen3-8B", "prompt_tokens": 1530,
     "completion_tokens": 256, "status": "ok", "finish_reason": "length"},
    {"request_id": "r3", "start_time": 1772442002.5, "first_token_time": 1772442002.91,
     "end_time": 1772442004.2, "model": "Qwen/Qwen3-8B", "prompt_tokens": 402,
     "completion_tokens": 58, "status": "ok", "finish_reason": "stop"},
    {"request_id": "r4", "start_time": "2026-03-02T09:00:03.300Z", "end_time": "2026-03-02T09:00:33.300Z",
     "model": "Qwen/Qwen3-8B", "status": "timeout"},
    {"request_id": "r5", "start_time": "2026-03-02T09:00:04.010Z", "first_token_time": "2026-03-02T09:00:04.300Z",
     "end_time": "2026-03-02T09:00:05.120Z", "model": "Qwen/Qwen3-8B", "prompt_tokens": 96,
     "completion_tokens": 40, "status": "cancelled"},
]


def gateway_cases():
    def generic(name, what, rule, line, key, value):
        rows = copy.deepcopy(GENERIC)
        rows[line - 1][key] = value
        text = "".join(json.dumps(r) + "\n" for r in rows)
        case("gateway_log", name + ".jsonl", text, rule, at(line, key), what)

    generic("end_before_start", "line 2: end_time before start_time", "ms before start_time", 2,
            "end_time", "2026-03-02T09:00:00.005Z")
    generic("first_token_before_start", "line 1: first token before the request", "ms before start_time",
            1, "first_token_time", "2026-03-02T08:59:59.000Z")
    generic("first_token_after_end", "line 5: first token after the end (TTFT > E2E)", "ms after end_time",
            5, "first_token_time", "2026-03-02T09:00:06.000Z")
    generic("start_time_zero", "line 3: start_time 0", INSTANT, 3, "start_time", 0)
    generic("end_time_zero", "line 3: end_time 0", INSTANT, 3, "end_time", 0)
    generic("start_time_1970", "line 1: start_time 1970-01-01", INSTANT, 1, "start_time",
            "1970-01-01T00:00:00Z")
    generic("end_time_9999", "line 2: end_time 9999-12-31", INSTANT, 2, "end_time",
            "9999-12-31T23:59:59Z")
    generic("negative_prompt_tokens", "line 1: prompt_tokens −5", TOKENS, 1, "prompt_tokens", -5)
    generic("fractional_completion_tokens", "line 2: completion_tokens 12.5", TOKENS, 2,
            "completion_tokens", 12.5)
    generic("prompt_tokens_1e20", "line 3: prompt_tokens 1e20", TOKENS, 3, "prompt_tokens", 1e20)
    generic("three_day_request", "line 3: a request lasting three days", "a request lasting more than a day",
            3, "end_time", 1772442002.5 + 3 * 86400)
    generic("mixed_units", "line 3: end_time in ms beside start_time in s", "the unit is ambiguous", 3,
            "end_time", 1772442004200)
    generic("start_time_nan", "line 1: start_time \"NaN\"", "expected an RFC 3339 date-time or Unix seconds",
            1, "start_time", "NaN")
    generic("negative_start_time", "line 3: start_time −1772442002.5",
            "expected an RFC 3339 date-time or Unix seconds", 3, "start_time", -1772442002.5)

    payload = json.loads(real("litellm/standard_logging_payload.from_gcs_test.json"))

    def lite(name, what, rule, key, value, where_key=None):
        d = copy.deepcopy(payload)
        d[key] = value
        case("gateway_log", name + ".json", json.dumps(d, indent=4), rule,
             field(where_key or key), what)

    lite("litellm_end_before_start", "endTime before startTime", "ms before startTime", "endTime",
         payload["startTime"] - 1.0)
    lite("litellm_first_token_before_start", "completionStartTime before startTime",
         "ms before startTime", "completionStartTime", payload["startTime"] - 0.5)
    lite("litellm_first_token_after_end", "completionStartTime 2 s after endTime (TTFT > E2E)",
         "ms after endTime", "completionStartTime", payload["endTime"] + 2.0)
    lite("litellm_start_time_zero", "startTime 0", INSTANT, "startTime", 0)
    lite("litellm_negative_prompt_tokens", "prompt_tokens −9", TOKENS, "prompt_tokens", -9)
    lite("litellm_fractional_completion_tokens", "completion_tokens 12.5", TOKENS,
         "completion_tokens", 12.5)
    lite("litellm_completion_in_ms", "completionStartTime in ms beside seconds",
         "the unit is ambiguous", "completionStartTime", payload["completionStartTime"] * 1000)
    lite("litellm_end_in_year_2200", "endTime in the year 2200", INSTANT, "endTime", 7258118400.0)


# ---------------------------------------------------------------------------------------------
# lm-evaluation-harness results


def lm_eval_cases():
    src = "akamaslabs-lmeval/results_2026-10-08T12-45-17.743940.json"
    base = json.loads(real(src))
    task = "gsm8k_platinum_cot_llama"
    res = f"results.{task}"

    def change(name, what, rule, where, mutate):
        d = copy.deepcopy(base)
        mutate(d)
        case("lm_eval", name + ".json", json.dumps(d, indent=2), rule, where, what)

    r = lambda d: d["results"][task]  # noqa: E731
    change("exact_match_above_one", "exact_match 1.5", FRACTION, field(f"{res}.exact_match,strict-match"),
           lambda d: r(d).update({"exact_match,strict-match": 1.5}))
    change("exact_match_negative", "exact_match −0.1", FRACTION,
           field(f"{res}.exact_match,flexible-extract"),
           lambda d: r(d).update({"exact_match,flexible-extract": -0.1}))
    change("exact_match_1e308", "exact_match 1e308", FRACTION, field(f"{res}.exact_match,strict-match"),
           lambda d: r(d).update({"exact_match,strict-match": 1e308}))
    change("accuracy_7_5", "acc 7.5 (a per cent figure as a fraction)", FRACTION, field(f"{res}.acc,none"),
           lambda d: r(d).update({"acc,none": 7.5}))
    change("stderr_negative", "stderr −0.01", STDERR_NEG,
           field(f"{res}.exact_match_stderr,strict-match"),
           lambda d: r(d).update({"exact_match_stderr,strict-match": -0.01}))
    change("stderr_above_bound", "stderr 0.05 over 1,209 samples (at most 0.0144)", STDERR_BOUND,
           field(f"{res}.exact_match_stderr,strict-match"),
           lambda d: r(d).update({"exact_match_stderr,strict-match": 0.05}))
    change("stderr_above_half", "stderr 0.7 of a 0–1 metric", STDERR_BOUND,
           field(f"{res}.exact_match_stderr,flexible-extract"),
           lambda d: r(d).update({"exact_match_stderr,flexible-extract": 0.7}))
    change("effective_above_original", "n-samples effective 1,300 of 1,209", SAMPLES,
           field(f"n-samples.{task}.effective"),
           lambda d: d["n-samples"][task].update(effective=1300))
    change("effective_zero", "n-samples effective 0", AT_LEAST_ONE, field(f"n-samples.{task}.effective"),
           lambda d: d["n-samples"][task].update(effective=0))
    change("effective_negative", "n-samples effective −5", AT_LEAST_ONE,
           field(f"n-samples.{task}.effective"), lambda d: d["n-samples"][task].update(effective=-5))
    change("effective_u64_max", "n-samples effective 18446744073709551615", AT_LEAST_ONE,
           field(f"n-samples.{task}.effective"),
           lambda d: d["n-samples"][task].update(effective=2**64 - 1))
    change("sample_len_zero", "sample_len 0", AT_LEAST_ONE, field(f"{res}.sample_len"),
           lambda d: r(d).update(sample_len=0))
    change("perplexity_negative", "a perplexity of −5", PERPLEXITY, field(f"{res}.perplexity,none"),
           lambda d: r(d).update({"perplexity,none": -5.0}))
    change("word_perplexity_below_one", "word_perplexity 0.5", PERPLEXITY,
           field(f"{res}.word_perplexity,none"), lambda d: r(d).update({"word_perplexity,none": 0.5}))
    change("bits_per_byte_negative", "bits_per_byte −0.2", BITS, field(f"{res}.bits_per_byte,none"),
           lambda d: r(d).update({"bits_per_byte,none": -0.2}))
    d = copy.deepcopy(base)
    r(d)["exact_match,strict-match"] = math.nan
    text = json.dumps(d, indent=2)
    case("lm_eval", "exact_match_nan.json", text, "invalid JSON",
         f"line {text[: text.index('NaN')].count(chr(10)) + 1}: ",
         "exact_match NaN (Python's json.dump)")


# ---------------------------------------------------------------------------------------------
# Evaluation-set runs (read against eval_set.csv, written here)

EVAL_SET = (
    "id,question,accepted_answer,accepted_passages\n"
    "q1,What is the notice period for a fixed-term contract?,Four weeks,p12|p13\n"
    "q2,Who approves travel above 2000 EUR?,The department head,p40\n"
    "q3,How many vacation days do part-time staff get?,Pro rata to their hours,p7\n"
    "q4,Where is the incident form?,In the service portal,p21|p22\n"
    "q5,What is the retention period for invoices?,Ten years,p3\n"
)

RUN_CSV = (
    "id,answer,score,retrieved\n"
    "q1,Four weeks,1,p12|p13|p2\n"
    "q2,The department head,1,p40|p41\n"
    "q3,Pro rata,0.75,p7|p8\n"
    "q4,The portal,0.5,p22|p30\n"
    "q5,Seven years,0,p9|p3\n"
)


def eval_run_cases():
    rows = RUN_CSV.splitlines()

    def csv_change(name, what, rule, line, where_field, new_row):
        out = list(rows)
        out[line - 1] = new_row
        case("eval_run", name + ".csv", "\n".join(out) + "\n", rule, at(line, where_field), what)

    csv_change("score_above_one", "line 3: score 1.5", "is outside 0–1", 3, "score",
               "q2,The department head,1.5,p40|p41")
    csv_change("score_negative", "line 4: score −0.25", "is outside 0–1", 4, "score",
               "q3,Pro rata,-0.25,p7|p8")
    csv_change("score_nan", "line 5: score NaN", FRACTION, 5, "score", "q4,The portal,NaN,p22|p30")
    csv_change("score_inf", "line 6: score inf", FRACTION, 6, "score", "q5,Seven years,inf,p9|p3")
    csv_change("duplicate_id", "line 4: q2 again", "already appears on line 3", 4, "id",
               "q2,The department head,1,p40")
    csv_change("unknown_id", "line 6: an id not in the set", "is not in the evaluation set", 6, "id",
               "q99,Seven years,0,p9")
    csv_change("score_text", "line 2: score \"high\"", "expected a number", 2, "score",
               "q1,Four weeks,high,p12")

    both = ["id,answer,score,correct"] + [r.rsplit(",", 1)[0] + "," for r in rows[1:]]
    both[2] = "q2,The department head,1,true"
    case("eval_run", "score_and_correct.csv", "\n".join(both) + "\n",
         "both a score and a correct value", at(3, "correct"), "line 3: both score and correct")
    mixed = ["id,answer,score,correct"] + [r.rsplit(",", 1)[0] + "," for r in rows[1:]]
    mixed[4] = "q4,The portal,,false"
    case("eval_run", "mixed_grading.csv", "\n".join(mixed) + "\n", "a run is graded one way",
         at(5, "correct"), "line 5: graded by correct while line 2 is graded by score")

    def jsonl(name, what, rule, line, where_field, key, value):
        recs = []
        for r in rows[1:]:
            i, a, s, p = r.split(",")
            recs.append({"id": i, "answer": a, "score": float(s), "retrieved": p.split("|")})
        recs[line - 1][key] = value
        text = "".join(json.dumps(x) + "\n" for x in recs)
        case("eval_run", name + ".jsonl", text, rule, at(line, where_field), what)

    jsonl("jsonl_score_two", "line 2: score 2", "is outside 0–1", 2, "score", "score", 2.0)
    jsonl("jsonl_score_1e308", "line 4: score 1e308", "is outside 0–1", 4, "score", "score", 1e308)
    jsonl("jsonl_score_string", "line 1: score \"0.5\"", "expected a number", 1, "score", "score", "0.5")
    jsonl("jsonl_correct_text", "line 3: correct \"yes\"", "expected true or false", 3, "correct",
          "correct", "yes")


# ---------------------------------------------------------------------------------------------
# vLLM start-up logs


def startup_cases():
    def change(name, what, rule, src, old, new, where_field):
        text = real(f"vllm-startup-logs/{src}")
        assert text.count(old) >= 1, (src, old)
        out = text.replace(old, new, 1)
        line = out[: out.index(new)].count("\n") + 1
        case("startup_log", name + ".log", out, rule, at(line, where_field), what)

    t4 = "03-t4-llama-3.2-3b-v0.8.2.log"
    change("requested_not_total_times_util", "13.18 GiB requested written as 26.36 GiB", REQUESTED,
           t4, "= 13.18GiB", "= 26.36GiB", "requested_memory_gib")
    change("utilisation_above_one", "gpu_memory_utilization (1.5)", FRACTION, t4,
           "gpu_memory_utilization (0.89)", "gpu_memory_utilization (1.5)", "gpu_memory_utilization")
    change("tensor_parallel_zero", "tensor_parallel_size=0", AT_LEAST_ONE, t4,
           "tensor_parallel_size=1", "tensor_parallel_size=0", "tensor_parallel_size")
    change("pipeline_parallel_zero", "pipeline_parallel_size=0", AT_LEAST_ONE, t4,
           "pipeline_parallel_size=1", "pipeline_parallel_size=0", "pipeline_parallel_size")
    change("max_model_len_zero", "max_model_len=0", AT_LEAST_ONE, t4, "max_model_len=2048",
           "max_model_len=0", "max_model_len")
    change("concurrency_negative", "Maximum concurrency … −28.41x", RATE_NEG, t4, ": 28.41x", ": -28.41x",
           "max_concurrency")
    change("concurrency_context_zero", "Maximum concurrency for 0 tokens per request", AT_LEAST_ONE, t4,
           "Maximum concurrency for 2048 tokens", "Maximum concurrency for 0 tokens",
           "max_concurrency_context_tokens")
    change("total_memory_4400_gib", "total_gpu_memory (4400.74GiB)", MEMORY, t4,
           "total_gpu_memory (14.74GiB)", "total_gpu_memory (4400.74GiB)", "total_gpu_memory_gib")

    v0 = "05-h200-tinyllama-1.1b-v0.6.4.log"
    change("gpu_blocks_negative", "# GPU blocks: −365549", COUNT_NEG, v0, "# GPU blocks: 365549",
           "# GPU blocks: -365549", "gpu_blocks")
    change("gpu_blocks_1e20", "# GPU blocks: 1e20 (once saturated to 18446744073709551615)",
           COUNT_BIG, v0, "# GPU blocks: 365549", "# GPU blocks: 99999999999999999999", "gpu_blocks")
    change("gpu_blocks_fraction", "# GPU blocks: 3655.5", COUNT_WHOLE, v0, "# GPU blocks: 365549",
           "# GPU blocks: 3655.5", "gpu_blocks")
    change("kv_cache_1e5_gib", "kv_cache_size=1e5 GiB", "is not a possible memory figure", v0,
           "kv_cache_size=122.71GiB", "kv_cache_size=100000GiB", "available_kv_gib")

    v1 = "09-dgx-spark-mistral-7b-gptq-v0.11.0.log"
    change("kv_tokens_negative", "GPU KV cache size: −840,160 tokens", COUNT_NEG, v1,
           "GPU KV cache size: 840,160 tokens", "GPU KV cache size: -840,160 tokens", "kv_cache_tokens")
    change("weights_1e308", "Model loading took 1e308 GiB", MEMORY, v1, "Model loading took ",
           "Model loading took 1e308 GiB and ", "weights_gib")

    ep = "08-l40s-4x-qwen3-235b-fp8-tp4-v0.10.log"
    change("weights_above_gpu", "27.72 GiB of weights written as 72.72 GiB on a 44.42 GiB GPU",
           WEIGHTS, ep, "Actual usage is 27.72 GiB for weight", "Actual usage is 72.72 GiB for weight",
           "weights_gib")
    change("requested_above_total_times_util", "Desired GPU memory utilization (0.9, 49.98 GiB) of 44.42 GiB",
           REQUESTED, ep, "(0.9, 39.98 GiB)", "(0.9, 49.98 GiB)", "requested_memory_gib")

    cmd = "15-rtx4090-2x-deepseek-r1-distill-qwen-14b-refused-v0.7.2.log"
    change("command_tensor_parallel_negative", "--tensor_parallel_size -2", AT_LEAST_ONE, cmd,
           "--tensor_parallel_size 2", "--tensor_parallel_size -2", "tensor_parallel_size")
    change("command_max_model_len_1e20", "--max-model-len 99999999999999999999", AT_LEAST_ONE, cmd,
           "--tensor_parallel_size 2", "--tensor_parallel_size 2 --max-model-len 99999999999999999999",
           "max_model_len")
    change("batched_below_seqs", "--max-num-seqs 512 with --max-num-batched-tokens 256", BATCH, cmd,
           "--tensor_parallel_size 2", "--tensor_parallel_size 2 --max-num-seqs 512 --max-num-batched-tokens 256",
           "max_num_seqs")
    change("max_num_seqs_zero", "--max-num-seqs 0", AT_LEAST_ONE, cmd, "--tensor_parallel_size 2",
           "--tensor_parallel_size 2 --max-num-seqs 0", "max_num_seqs")


# ---------------------------------------------------------------------------------------------


def write_all():
    for kind_dir in HERE.iterdir():
        if kind_dir.is_dir():
            shutil.rmtree(kind_dir)
    for kind, name, data, *_ in CASES:
        path = HERE / kind / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    write_bases()
    with open(HERE / "expected.tsv", "w", encoding="utf-8", newline="\n") as out:
        out.write("file\trule\twhere\n")
        for kind, name, _, rule, where, _ in CASES:
            assert "\t" not in rule + where and "\n" not in rule + where
            out.write(f"{kind}/{name}\t{rule}\t{where}\n")
    write_readme()


# The bases every kind starts from that are not files of testdata/ as they are: written to
# bases/ so that the engine test can show they are accepted (the refusal of each hostile file
# is then its one change).
def write_bases():
    bases = HERE / "bases"
    bases.mkdir()
    (bases / "eval_set.csv").write_text(EVAL_SET, encoding="utf-8")
    (bases / "eval_run.csv").write_text(RUN_CSV, encoding="utf-8")
    (bases / "gateway_log.jsonl").write_text("".join(json.dumps(r) + "\n" for r in GENERIC),
                                             encoding="utf-8")
    (bases / "guidellm.json").write_text(json.dumps(guidellm_base(), indent=1), encoding="utf-8")
    (bases / "guidellm.yaml").write_text("\n".join(trimmed_yaml()) + "\n", encoding="utf-8")
    (bases / "metrics_scrape.txt").write_text("\n".join(scrape_base()) + "\n", encoding="utf-8")


def write_readme():
    kinds = []
    for kind, *_ in CASES:
        if kind not in kinds:
            kinds.append(kind)
    lines = [
        "# Hostile corpus: files that must be refused",
        "",
        "Generated by `generate.py` (Python 3, standard library only; do not edit the files by",
        "hand, change the generator and rerun it). Each file is a real file from `testdata/` with",
        "one value changed (where noted: one statistic block scaled as a unit mistake would, or one",
        "key added, such as an lm-eval perplexity or a guidellm `streams`), so that it breaks",
        "exactly one plausibility rule of `engine/PLAUSIBILITY.md`. Every file is",
        "under 20 KB: the guidellm report keeps only each metric's `successful` distribution and cuts",
        "the request texts, the `/metrics` scrape keeps only the families the vLLM reader uses.",
        "",
        "`expected.tsv` lists every file with the rule's words and where the message must point",
        "(line and/or field). `engine/tests/hostile.rs` reads each file with the importer of its",
        "kind and `server/tests/api/hostile.rs` uploads it; both assert that it is refused with a",
        "message naming the file, that place and that rule, and that nothing is stored.",
        "",
        "`bases/` holds what the files start from where that is not a file of `testdata/` as it is:",
        "the trimmed guidellm report (JSON and YAML) and `/metrics` scrape, and, where no real",
        "sample exists, a generic gateway log and an evaluation set with a run over it (written",
        "by the generator in the documented schemas). The engine test checks that every base is",
        "accepted, so each hostile file is refused for its one change. Eval runs are read",
        "against `bases/eval_set.csv`.",
        "",
        f"{len(CASES)} files in {len(kinds)} kinds.",
        "",
    ]
    for kind in kinds:
        rows = [c for c in CASES if c[0] == kind]
        lines += [f"## {kind} ({len(rows)})", "", "| file | breaks | rule | where |", "|---|---|---|---|"]
        for _, name, _, rule, where, what in rows:
            cell = lambda s: s.replace("|", "\\|")  # noqa: E731
            lines.append(f"| `{name}` | {cell(what)} | {cell(rule)} | `{cell(where)}` |")
        lines.append("")
    (HERE / "README.md").write_text("\n".join(lines), encoding="utf-8")


def main():
    vllm_cases()
    aiperf_json_cases()
    aiperf_csv_cases()
    aiperf_jsonl_cases()
    guidellm_cases()
    metrics_cases()
    gateway_cases()
    lm_eval_cases()
    eval_run_cases()
    startup_cases()
    write_all()
    print(f"{len(CASES)} hostile files written under {HERE}")


if __name__ == "__main__":
    main()
