#!/usr/bin/env python3
"""Sustained live-feed ingest for `make bench` (part 4): posts LiteLLM `generic_api` batches to
`POST /api/v1/pilots/{id}/gateway/records` at `--rate` records/s for `--seconds`, open loop (a
batch is due every batch/rate seconds whatever the answers do, spread over `--clients`
kept-alive connections), and prints JSON: records sent and accepted, the rate reached, and the
latency of a post (p50, p99, max, in ms). Each record is the real payload LiteLLM 1.108.7 posted
(`testdata/litellm-1.108.7-generic-api/posts.json`, first record) with its own id and times.
Bodies are made before the clock starts so the generator's own CPU stays out of the figures.
Stdlib only.
"""
import argparse
import http.client
import json
import threading
import time
import urllib.parse


def template(path):
    with open(path) as f:
        first = json.loads(next(line for line in f if line.strip()))[0]
    return first


def bodies(record, count, batch, start_s):
    """`count` batches of `batch` records with fresh ids, all starting within today."""
    out = []
    for b in range(count):
        items = []
        for j in range(batch):
            r = dict(record)
            n = b * batch + j
            r["id"] = f"chatcmpl-bench-{start_s}-{n}"
            r["litellm_call_id"] = f"bench-{start_s}-{n}"
            t = start_s + n * 0.0005
            r["startTime"], r["completionStartTime"], r["endTime"] = t, t + 0.2, t + 0.6
            items.append(r)
        out.append(json.dumps(items).encode())
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("pilot", type=int)
    ap.add_argument("token")
    ap.add_argument("--template", required=True)
    ap.add_argument("--rate", type=float, default=2000)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--clients", type=int, default=8)
    a = ap.parse_args()
    count = int(a.rate * a.seconds / a.batch)
    made = bodies(template(a.template), count, a.batch, int(time.time()) - 3600)
    every = a.batch / a.rate
    u = urllib.parse.urlsplit(a.base)
    path = f"/api/v1/pilots/{a.pilot}/gateway/records"
    latencies, accepted, failures, late = [], [0], [], [0]
    lock = threading.Lock()
    t0 = time.monotonic() + 0.5

    def client(i):
        conn = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
        for k in range(i, count, a.clients):
            due = t0 + k * every
            now = time.monotonic()
            if now < due:
                time.sleep(due - now)
            elif now - due > every:
                with lock:
                    late[0] += 1
            sent = time.monotonic()
            conn.request("POST", path, body=made[k], headers={
                "Authorization": f"Bearer {a.token}", "Content-Type": "application/json"})
            resp = conn.getresponse()
            body = resp.read()
            took = (time.monotonic() - sent) * 1000
            with lock:
                latencies.append(took)
                if resp.status == 200:
                    accepted[0] += json.loads(body)["accepted"]
                else:
                    failures.append(resp.status)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(a.clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.monotonic() - t0
    latencies.sort()
    pick = lambda q: round(latencies[min(len(latencies) - 1, int(q * len(latencies)))], 1)
    print(json.dumps({
        "records_sent": count * a.batch, "records_accepted": accepted[0],
        "batches": count, "batch": a.batch, "bytes_per_batch": len(made[0]),
        "seconds": round(wall, 1), "records_per_s": round(accepted[0] / wall),
        "post_ms_p50": pick(0.50), "post_ms_p99": pick(0.99), "post_ms_max": round(latencies[-1], 1),
        "late_batches": late[0], "failed_posts": len(failures),
        "failure_statuses": sorted(set(failures)),
    }))


if __name__ == "__main__":
    main()
