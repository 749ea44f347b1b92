"""The demand profile of a generic gateway log (JSON Lines), written the way an analyst would
with pandas: the baseline `scripts/bench.sh` sets `server demand` against.

It computes what `server demand --json` reports for such a log: outcome counts, the busiest
hour's arrivals, requests in flight (peak and time-weighted mean, from a sweep over start and
end times), Little's law over the log, and p50/p95/p99/max of prompt, answer and context tokens
and of TTFT, TPOT and E2E. Prints one JSON object.

    python3 bench/demand_pandas.py log.jsonl
"""

import json
import sys

import numpy as np
import pandas as pd


def percentiles(series):
    values = series.dropna().to_numpy(dtype=float)
    if values.size == 0:
        return None
    p50, p95, p99 = np.quantile(values, [0.50, 0.95, 0.99])
    return {"p50": p50, "p95": p95, "p99": p99, "max": values.max(), "mean": values.mean()}


def main(path):
    log = pd.read_json(path, lines=True, dtype=False)
    start = pd.to_datetime(log["start_time"], utc=True, format="ISO8601")
    end = pd.to_datetime(log["end_time"], utc=True, format="ISO8601")
    first = pd.to_datetime(log["first_token_time"], utc=True, format="ISO8601")
    start_s = (start - pd.Timestamp(0, tz="UTC")).dt.total_seconds().to_numpy()
    end_s = (end - pd.Timestamp(0, tz="UTC")).dt.total_seconds().to_numpy()

    # Busiest hour: the most arrivals in any hour-long window starting at an arrival.
    starts = np.sort(start_s)
    in_hour = np.searchsorted(starts, starts + 3600.0, side="left") - np.arange(starts.size)
    busiest = int(in_hour.argmax())

    # Requests in flight: a sweep over +1 at each start and -1 at each end.
    events = pd.DataFrame(
        {"t": np.concatenate([start_s, end_s]), "d": np.concatenate([np.ones(len(log)), -np.ones(len(log))])}
    ).sort_values(["t", "d"], kind="mergesort")
    level = events["d"].cumsum().to_numpy()
    t = events["t"].to_numpy()
    span = t[-1] - t[0]
    mean_in_flight = float((level[:-1] * np.diff(t)).sum() / span) if span > 0 else 0.0

    duration = end_s - start_s
    ttft_ms = (first - start).dt.total_seconds() * 1000.0
    e2e_ms = duration * 1000.0
    out_tokens = log["completion_tokens"].astype(float)
    tpot_ms = pd.Series(np.where(out_tokens > 1, (e2e_ms - ttft_ms) / (out_tokens - 1), np.nan))
    context = log["prompt_tokens"] + log["completion_tokens"]
    status = log["status"].value_counts().to_dict()
    truncated = int((log["finish_reason"] == "length").sum())

    profile = {
        "requests": int(len(log)),
        "outcomes": {str(k): int(v) for k, v in status.items()},
        "truncated": truncated,
        "busiest_hour_start_s": float(starts[busiest]),
        "busiest_hour_arrivals": int(in_hour[busiest]),
        "peak_in_flight": int(level.max()),
        "mean_in_flight": mean_in_flight,
        "littles_law_in_flight": float(len(log) / span * duration.mean()) if span > 0 else 0.0,
        "prompt_tokens": percentiles(log["prompt_tokens"]),
        "completion_tokens": percentiles(log["completion_tokens"]),
        "context_tokens": percentiles(context),
        "ttft_ms": percentiles(ttft_ms),
        "tpot_ms": percentiles(tpot_ms),
        "e2e_ms": percentiles(pd.Series(e2e_ms)),
    }
    json.dump(profile, sys.stdout, default=float)
    print()


if __name__ == "__main__":
    main(sys.argv[1])
