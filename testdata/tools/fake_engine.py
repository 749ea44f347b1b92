#!/usr/bin/env python3
"""A tiny OpenAI-compatible streaming engine, the project's own fake (stdlib only).

Serves /v1/models, /v1/chat/completions and /v1/completions, streamed (SSE) or not, and
/v1/embeddings (a fixed 8-number vector). It is no model: each "token" is a word from a fixed
list, sent after a small random delay, so that the gateway and the load generators in front of
it see real streaming timings.

* time to first token: 20-60 ms (uniform); between tokens: 4-12 ms (uniform)
* answer length: `max_tokens` / `max_completion_tokens` when given (finish_reason "length"),
  else 16-48 tokens (finish_reason "stop")
* prompt tokens: the number of whitespace-separated words of the prompt (a fake count)
* usage: in the last chunk when `stream_options.include_usage` is true, and in every
  non-streamed answer

Usage: fake_engine.py [--port 8100] [--model fake-model] [--seed 7]
"""
import argparse
import json
import random
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

WORDS = ("the quick brown fox jumps over a lazy dog while pilots measure every token "
         "that leaves the engine on time").split()


def prompt_words(body):
    if "messages" in body:
        text = " ".join(
            m.get("content") if isinstance(m.get("content"), str) else json.dumps(m.get("content"))
            for m in body["messages"])
    else:
        p = body.get("prompt", "")
        text = p if isinstance(p, str) else " ".join(map(str, p))
    return max(1, len(text.split()))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fake-engine/1"

    def log_message(self, fmt, *args):  # quiet
        pass

    def send_json(self, code, obj):
        data = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path.rstrip("/") in ("/v1/models", "/models"):
            self.send_json(200, {"object": "list", "data": [
                {"id": self.server.model, "object": "model", "created": 0, "owned_by": "fake"}]})
        elif self.path.startswith("/health"):
            self.send_json(200, {"status": "ok"})
        else:
            self.send_json(404, {"error": "not found"})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        if self.path.endswith("/embeddings"):
            n = prompt_words({"prompt": body.get("input", "")})
            self.send_json(200, {"object": "list", "model": body.get("model") or self.server.model,
                                 "data": [{"object": "embedding", "index": 0,
                                           "embedding": [0.125 * i for i in range(8)]}],
                                 "usage": {"prompt_tokens": n, "total_tokens": n}})
            return
        chat = self.path.endswith("/chat/completions")
        if not chat and not self.path.endswith("/completions"):
            self.send_json(404, {"error": "not found"})
            return
        rng = random.Random(self.server.next_seed())
        limit = body.get("max_completion_tokens") or body.get("max_tokens")
        n = int(limit) if limit else rng.randint(16, 48)
        finish = "length" if limit else "stop"
        prompt = prompt_words(body)
        rid = ("chatcmpl-" if chat else "cmpl-") + uuid.uuid4().hex[:24]
        created = int(time.time())
        model = body.get("model") or self.server.model
        usage = {"prompt_tokens": prompt, "completion_tokens": n, "total_tokens": prompt + n}
        words = [rng.choice(WORDS) for _ in range(n)]
        if not body.get("stream"):
            time.sleep(rng.uniform(0.020, 0.060) + sum(rng.uniform(0.004, 0.012) for _ in range(n - 1)))
            text = " ".join(words)
            choice = ({"index": 0, "message": {"role": "assistant", "content": text},
                       "finish_reason": finish} if chat else
                      {"index": 0, "text": text, "finish_reason": finish, "logprobs": None})
            self.send_json(200, {"id": rid, "object": "chat.completion" if chat else "text_completion",
                                 "created": created, "model": model, "choices": [choice], "usage": usage})
            return
        include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        obj = "chat.completion.chunk" if chat else "text_completion"

        def event(payload):
            self.wfile.write(b"data: " + json.dumps(payload).encode() + b"\n\n")
            self.wfile.flush()

        def chunk(i, finish_reason=None):
            piece = ("" if i == 0 else " ") + words[i]
            if chat:
                delta = {"content": piece}
                if i == 0:
                    delta["role"] = "assistant"
                c = {"index": 0, "delta": delta, "finish_reason": finish_reason}
            else:
                c = {"index": 0, "text": piece, "finish_reason": finish_reason, "logprobs": None}
            return {"id": rid, "object": obj, "created": created, "model": model, "choices": [c]}

        try:
            time.sleep(rng.uniform(0.020, 0.060))
            for i in range(n):
                if i:
                    time.sleep(rng.uniform(0.004, 0.012))
                event(chunk(i, finish if i == n - 1 else None))
            if include_usage:
                event({"id": rid, "object": obj, "created": created, "model": model,
                       "choices": [], "usage": usage})
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client went away mid-stream


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, addr, model, seed):
        super().__init__(addr, Handler)
        self.model = model
        self._seed = seed
        self._lock = threading.Lock()

    def next_seed(self):
        with self._lock:
            self._seed += 1
            return self._seed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=8100)
    ap.add_argument("--model", default="fake-model")
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    Server(("127.0.0.1", a.port), a.model, a.seed).serve_forever()


if __name__ == "__main__":
    main()
