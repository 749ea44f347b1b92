#!/usr/bin/env python3
"""Traffic for the gateway log: complete and client-cancelled streamed chat completions, one
call with a bad key and one embeddings call, through the LiteLLM proxy (stdlib only).

Usage: gateway_client.py [--url http://127.0.0.1:4000] [--key sk-pilot-master]
                         [--model pilot-chat] [--complete 4] [--cancel-after 1,2,3,5,8,13,21,34]
                         [--bad-key] [--embedding]
Requests go one after another. A cancelled request reads that many SSE `data:` events and then
closes the socket without reading the rest of the answer (the client hangs up mid-stream).
"""
import argparse
import http.client
import json
import time
import urllib.parse

PROMPT = "tell me a long story about pilots and tokens please"


def post(url, key, path, body):
    u = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port or 80, timeout=30)
    conn.request("POST", path, body=json.dumps(body), headers={
        "Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    return conn, conn.getresponse()


def chat(url, key, model, stop_after=None, max_tokens=64):
    """Streams one chat completion; hangs up after `stop_after` events when given."""
    conn, resp = post(url, key, "/v1/chat/completions", {
        "model": model, "stream": True, "max_tokens": max_tokens,
        "messages": [{"role": "user", "content": PROMPT}]})
    seen = 0
    while stop_after is None or seen < stop_after:
        line = resp.fp.readline()
        if not line:
            break
        if line.startswith(b"data:"):
            seen += 1
    if stop_after is not None:
        conn.sock.close()  # hang up mid-stream
    conn.close()
    return resp.status, seen


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", default="http://127.0.0.1:4000")
    ap.add_argument("--key", default="sk-pilot-master")
    ap.add_argument("--model", default="pilot-chat")
    ap.add_argument("--complete", type=int, default=0)
    ap.add_argument("--max-tokens", type=int, default=32)
    ap.add_argument("--cancel-after", default="")
    ap.add_argument("--bad-key", action="store_true")
    ap.add_argument("--embedding", action="store_true")
    a = ap.parse_args()
    for _ in range(a.complete):
        print("complete:", chat(a.url, a.key, a.model, None, a.max_tokens))
        time.sleep(0.3)
    for n in (int(x) for x in a.cancel_after.split(",") if x):
        print(f"cancelled after {n} events:", chat(a.url, a.key, a.model, n))
        time.sleep(0.3)
    if a.bad_key:
        print("bad key:", chat(a.url, "sk-not-a-key", a.model, None))
    if a.embedding:
        conn, resp = post(a.url, a.key, "/v1/embeddings", {"model": a.model, "input": PROMPT})
        print("embedding:", resp.status, len(resp.read()))
        conn.close()


if __name__ == "__main__":
    main()
