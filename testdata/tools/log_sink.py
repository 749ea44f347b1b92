#!/usr/bin/env python3
"""A local HTTP sink for LiteLLM's `generic_api` callback (stdlib only).

Every POST body is saved as it came, byte for byte, to OUT_DIR/post-NNNN.json (numbered in
arrival order), and appended to OUT_DIR/posts.json followed by one line end, so that file is
what a sink keeping every body in one file holds (LiteLLM's default `json_array` format: one
JSON array per line).

Usage: log_sink.py OUT_DIR [--port 8200]
"""
import argparse
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
COUNT = [0]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        data = self.rfile.read(length)
        with LOCK:
            COUNT[0] += 1
            path = os.path.join(self.server.out_dir, f"post-{COUNT[0]:04d}.json")
            with open(path, "wb") as f:
                f.write(data)
            with open(os.path.join(self.server.out_dir, "posts.json"), "ab") as f:
                f.write(data + b"\n")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out_dir")
    ap.add_argument("--port", type=int, default=8200)
    a = ap.parse_args()
    os.makedirs(a.out_dir, exist_ok=True)
    server = ThreadingHTTPServer(("127.0.0.1", a.port), Handler)
    server.daemon_threads = True
    server.out_dir = a.out_dir
    server.serve_forever()


if __name__ == "__main__":
    main()
