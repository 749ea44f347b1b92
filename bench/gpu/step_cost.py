"""Measure the step costs the sizing engine's timing priors rest on, on the GPU at hand.

Why: the capacity twin carries a pilot's load tests to other cards by the physics of the work
(weights and KV cache read per decode step against the memory bandwidth, prefill FLOPs against
the tensor throughput, a host overhead per step by execution mode). The achievable fractions of
the vendor's figures and the host overheads are priors; this script measures them on a real
card for real model shapes, so the priors written in engine/src/twin/step_model.rs carry a
measurement, not a guess. Nothing in the project runs it (CI has no GPU); its output is kept in
engine/data/step_measurements/.

What it measures, per model shape (random BF16 weights of the exact shapes; a transformer
decoder: fused QKV, GQA attention over a KV cache, SwiGLU MLP, RMSNorm, LM head):
  * the card's copy bandwidth (device-to-device clone of 4 GiB, bytes read + written);
  * the dense BF16 matrix rate (8192³ products);
  * one decode step at batch 1, 8, 32, 64 and context 1,024 / 4,096 tokens, replayed as a CUDA
    graph and run eagerly (kernel by kernel from Python, as `--enforce-eager` does);
  * one prefill of 2,048 and 8,192 tokens (causal flash attention through SDPA).

Usage: python3 bench/gpu/step_cost.py OUT_DIR   (about 3 minutes on an H200)
"""

import json
import math
import os
import sys
import time

import torch
import torch.nn.functional as F

SHAPES = {
    # name: hidden, intermediate, layers, heads, kv_heads, head_dim, vocab, layers_built
    # Sources: the models' config.json on Hugging Face (Qwen/Qwen2.5-7B-Instruct,
    # meta-llama/Llama-3.1-8B-Instruct, meta-llama/Llama-3.3-70B-Instruct).
    "qwen2.5-7b": (3584, 18944, 28, 28, 4, 128, 152064, 28),
    "llama-3.1-8b": (4096, 14336, 32, 32, 8, 128, 128256, 32),
    # 80 layers in BF16 are 141 GB: half of them are built, and per-layer figures doubled.
    "llama-3.3-70b": (8192, 28672, 80, 64, 8, 128, 128256, 40),
}
DEV = "cuda"
DT = torch.bfloat16


def timed(fn, reps=30, warm=5):
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


def card():
    n = 4 * 1024**3 // 2
    a = torch.empty(n, dtype=DT, device=DEV)
    ms = timed(lambda: a.clone(), reps=10)
    copy_gb_s = 2 * a.numel() * 2 / (ms / 1e3) / 1e9
    del a
    x = torch.randn(8192, 8192, dtype=DT, device=DEV)
    y = torch.randn(8192, 8192, dtype=DT, device=DEV)
    ms_mm = timed(lambda: x @ y, reps=10)
    tflops = 2 * 8192**3 / (ms_mm / 1e3) / 1e12
    del x, y
    torch.cuda.empty_cache()
    return {"copy_gb_s": copy_gb_s, "bf16_matmul_tflops": tflops,
            "name": torch.cuda.get_device_name(0), "torch": torch.__version__}


class Model:
    def __init__(self, shape):
        h, inter, _, nh, kv, hd, vocab, built = shape
        self.h, self.inter, self.nh, self.kv, self.hd = h, inter, nh, kv, hd
        mk = lambda *s: torch.empty(*s, dtype=DT, device=DEV).normal_(0, 0.02)
        self.layers = [
            dict(qkv=mk(h, (nh + 2 * kv) * hd), o=mk(nh * hd, h), gu=mk(h, 2 * inter),
                 down=mk(inter, h), n1=torch.ones(h, dtype=DT, device=DEV),
                 n2=torch.ones(h, dtype=DT, device=DEV))
            for _ in range(built)
        ]
        self.head = mk(h, vocab)
        self.bytes = sum(t.numel() * 2 for l in self.layers for t in l.values()) + self.head.numel() * 2

    def decode(self, x, caches):
        b = x.shape[0]
        for w, (k, v) in zip(self.layers, caches):
            hdn = F.rms_norm(x, (self.h,), w["n1"])
            qkv = hdn @ w["qkv"]
            q = qkv[:, : self.nh * self.hd].view(b, self.nh, 1, self.hd)
            o = F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
            x = x + o.reshape(b, self.nh * self.hd) @ w["o"]
            hdn = F.rms_norm(x, (self.h,), w["n2"])
            gu = hdn @ w["gu"]
            x = x + (F.silu(gu[:, : self.inter]) * gu[:, self.inter:]) @ w["down"]
        return x @ self.head

    def prefill(self, x):
        t = x.shape[0]
        for w in self.layers:
            hdn = F.rms_norm(x, (self.h,), w["n1"])
            qkv = hdn @ w["qkv"]
            q = qkv[:, : self.nh * self.hd].view(1, t, self.nh, self.hd).transpose(1, 2)
            k = qkv[:, self.nh * self.hd: (self.nh + self.kv) * self.hd].view(1, t, self.kv, self.hd).transpose(1, 2)
            v = qkv[:, (self.nh + self.kv) * self.hd:].view(1, t, self.kv, self.hd).transpose(1, 2)
            o = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
            x = x + o.transpose(1, 2).reshape(t, self.nh * self.hd) @ w["o"]
            hdn = F.rms_norm(x, (self.h,), w["n2"])
            gu = hdn @ w["gu"]
            x = x + (F.silu(gu[:, : self.inter]) * gu[:, self.inter:]) @ w["down"]
        return x[-1:] @ self.head


def decode_point(model, batch, context):
    caches = [(torch.empty(batch, model.kv, context, model.hd, dtype=DT, device=DEV).normal_(),
               torch.empty(batch, model.kv, context, model.hd, dtype=DT, device=DEV).normal_())
              for _ in model.layers]
    x = torch.randn(batch, model.h, dtype=DT, device=DEV)
    eager = timed(lambda: model.decode(x, caches))
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for _ in range(3):
            model.decode(x, caches)
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        model.decode(x, caches)
    graphed = timed(graph.replay, reps=50)
    kv_bytes = sum(k.numel() * 2 * 2 for k, _ in caches)
    del caches, graph
    torch.cuda.empty_cache()
    return {"batch": batch, "context": context, "graph_ms": graphed, "eager_ms": eager,
            "kv_bytes": kv_bytes}


def measure(name, shape):
    started = time.time()
    model = Model(shape)
    layers, built = shape[2], shape[7]
    out = {"model": name, "layers": layers, "layers_built": built, "weight_bytes_built": model.bytes,
           "decode": [], "prefill": []}
    for context in (1024, 4096):
        for batch in (1, 8, 32, 64):
            if context == 4096 and batch > 32:
                continue
            out["decode"].append(decode_point(model, batch, context))
    for tokens in (2048, 8192):
        x = torch.randn(tokens, model.h, dtype=DT, device=DEV)
        ms = timed(lambda: model.prefill(x), reps=5, warm=2)
        out["prefill"].append({"tokens": tokens, "ms": ms})
        del x
    del model
    torch.cuda.empty_cache()
    out["seconds"] = time.time() - started
    return out


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(out_dir, exist_ok=True)
    result = {"card": card(), "models": []}
    print(json.dumps(result["card"]), flush=True)
    for name, shape in SHAPES.items():
        try:
            m = measure(name, shape)
        except Exception as error:  # a shape that does not fit is reported, not fatal
            m = {"model": name, "error": repr(error)}
            torch.cuda.empty_cache()
        result["models"].append(m)
        print(json.dumps(m), flush=True)
        with open(os.path.join(out_dir, "step_cost.json"), "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
