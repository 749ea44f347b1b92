"""Writes a large AIPerf per-request export (`profile_export.jsonl`) for the benchmarks.

Each record is the shape of the real success record in
`testdata/aiperf-examples-run1/profile_export.head12.jsonl` (AIPerf's own layout), with TTFT,
inter-chunk gaps and lengths drawn from a seeded generator, so 30,000 records make a file of
about 110 MB, like a long real run.

    python3 bench/aiperf_jsonl.py 30000 > profile_export.jsonl
"""

import json
import random
import sys
import uuid


def main(count, seed=7):
    rng = random.Random(seed)
    t_ns = 1_759_522_419_159_192_408
    out = sys.stdout
    for i in range(count):
        input_len = rng.randint(200, 1200)
        output_len = rng.randint(160, 340)
        ttft = rng.lognormvariate(5.8, 0.5)
        gaps = [round(rng.lognormvariate(3.4, 0.25), 6) for _ in range(output_len - 1)]
        latency = ttft + sum(gaps)
        start = t_ns + i * 25_000_000
        record = {
            "metadata": {
                "x_request_id": str(uuid.UUID(int=rng.getrandbits(128))),
                "x_correlation_id": str(uuid.UUID(int=rng.getrandbits(128))),
                "conversation_id": str(uuid.UUID(int=rng.getrandbits(128))),
                "turn_index": 0,
                "timestamp_ns": start,
                "worker_id": "worker_43e91c09",
                "record_processor_id": "record_processor_4e864808",
                "credit_phase": "profiling",
            },
            "metrics": {
                "input_sequence_length": {"value": input_len, "unit": "tokens"},
                "ttft": {"value": round(ttft, 6), "unit": "ms"},
                "request_count": {"value": 1, "unit": "requests"},
                "request_latency": {"value": round(latency, 6), "unit": "ms"},
                "min_request_timestamp": {"value": start, "unit": "ns"},
                "output_token_count": {"value": output_len, "unit": "tokens"},
                "ttst": {"value": gaps[0], "unit": "ms"},
                "inter_chunk_latency": {"value": gaps, "unit": "ms"},
                "output_sequence_length": {"value": output_len, "unit": "tokens"},
                "max_response_timestamp": {"value": start + int(latency * 1e6), "unit": "ns"},
                "inter_token_latency": {"value": sum(gaps) / (output_len - 1), "unit": "ms"},
                "output_token_throughput_per_user": {
                    "value": 1000.0 / (sum(gaps) / (output_len - 1)),
                    "unit": "tokens/sec/user",
                },
            },
            "error": None,
        }
        out.write(json.dumps(record, separators=(",", ":")))
        out.write("\n")


if __name__ == "__main__":
    main(int(sys.argv[1]))
