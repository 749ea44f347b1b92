#!/usr/bin/env python3
"""Traffic through a LiteLLM proxy for the live-feed test (`scripts/live-gateway.sh`): `--requests`
streamed chat completions on `--concurrency` threads; every `--cancel-every`-th request hangs up
after 1-3 streamed events (a client that closes the tab), the rest read their answer to the end.
Prompts have 6 to 15 words. Prints what was sent as JSON: requests, completed, cancelled,
max_tokens, and the request ids LiteLLM answered with (stdlib only).
"""
import argparse
import http.client
import json
import threading
import urllib.parse

WORDS = "pilots measure every token that leaves the engine on time before production".split()


def one(url, key, model, index, cancel_every, max_tokens):
    u = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port or 80, timeout=60)
    words = 6 + index % 10
    prompt = " ".join(WORDS[i % len(WORDS)] for i in range(words))
    conn.request("POST", "/v1/chat/completions", body=json.dumps({
        "model": model, "stream": True, "max_tokens": max_tokens,
        "messages": [{"role": "user", "content": prompt}]}), headers={
        "Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    resp = conn.getresponse()
    cancel = cancel_every > 0 and index % cancel_every == cancel_every - 1
    stop_after = 1 + index % 3 if cancel else None
    seen = 0
    while stop_after is None or seen < stop_after:
        line = resp.fp.readline()
        if not line:
            break
        if line.startswith(b"data:"):
            seen += 1
    if cancel:
        conn.sock.close()
    conn.close()
    return resp.status, cancel


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--key", default="sk-pilot-master")
    ap.add_argument("--model", default="pilot-chat")
    ap.add_argument("--requests", type=int, default=240)
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--cancel-every", type=int, default=4)
    ap.add_argument("--max-tokens", type=int, default=24)
    a = ap.parse_args()
    lock = threading.Lock()
    results = []
    next_index = [0]

    def worker():
        while True:
            with lock:
                index = next_index[0]
                next_index[0] += 1
            if index >= a.requests:
                return
            status, cancelled = one(a.url, a.key, a.model, index, a.cancel_every, a.max_tokens)
            with lock:
                results.append((status, cancelled))

    threads = [threading.Thread(target=worker) for _ in range(a.concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(json.dumps({
        "requests": len(results),
        "refused": sum(1 for s, _ in results if s != 200),
        "cancelled": sum(1 for s, c in results if s == 200 and c),
        "completed": sum(1 for s, c in results if s == 200 and not c),
        "max_tokens": a.max_tokens,
    }))


if __name__ == "__main__":
    main()
