"""NumPy column of tests/bench/bench.mjs: the same four kernels in float32, as a careful NumPy
user would write them. Run with /usr/bin/python3 (Debian's python3-numpy).

  sinusoidal  4096 x 1024: angles pos * div_i in float64, sin/cos in float64, cast to float32
              (float32 angles would be off by ~2e-4 at position 4095)
  rope        4096 x 128, half layout (HF rotate_half): inv_freq and angles in float64,
              cos/sin cast to float32, rotation in float32 into a new array
  qk          1024 x 1024, d = 64: (q @ k.T) * 1/sqrt(d), float32 (BLAS sgemm)
  softmax     1024 x 1024: stable row softmax in float32 into a new array

Usage: numpy_bench.py [--runs N] [--warmup W]; prints one JSON object with per-kernel medians
and samples in ms.
"""
import argparse
import json
import math
import os
import platform
import sys
import time

import numpy as np

SIN_ROWS, SIN_DIM = 4096, 1024
ROPE_ROWS, ROPE_DIM = 4096, 128
QK_ROWS, QK_DIM = 1024, 64
SOFT_ROWS, SOFT_COLS = 1024, 1024


def sinusoidal(positions, d_model, base=10000.0):
    pos = np.arange(positions, dtype=np.float64)[:, None]
    div = np.exp(np.arange(0, d_model, 2, dtype=np.float64) * (-math.log(base) / d_model))
    angle = pos * div
    out = np.empty((positions, d_model), dtype=np.float32)
    out[:, 0::2] = np.sin(angle)
    out[:, 1::2] = np.cos(angle)
    return out


def rope_half(x, base=10000.0):
    rows, dim = x.shape
    n = dim // 2
    inv_freq = 1.0 / base ** (np.arange(0, dim, 2, dtype=np.float64) / dim)
    angle = np.arange(rows, dtype=np.float64)[:, None] * inv_freq
    c = np.cos(angle).astype(np.float32)
    s = np.sin(angle).astype(np.float32)
    x1, x2 = x[:, :n], x[:, n:]
    out = np.empty_like(x)
    out[:, :n] = x1 * c - x2 * s
    out[:, n:] = x2 * c + x1 * s
    return out


def qk(q, k):
    out = q @ k.T
    out *= np.float32(1.0 / math.sqrt(q.shape[1]))
    return out


def softmax(scores):
    e = scores - scores.max(axis=1, keepdims=True)
    np.exp(e, out=e)
    e /= e.sum(axis=1, keepdims=True)
    return e


def time_kernel(fn, warmup, runs):
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1e3)
    return {"median_ms": float(np.median(samples)), "samples_ms": samples}


def blas_library():
    try:
        return os.path.realpath("/usr/lib/x86_64-linux-gnu/libblas.so.3")
    except OSError:
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--warmup", type=int, default=2)
    a = ap.parse_args()
    runs, warmup = max(1, a.runs), max(0, a.warmup)

    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, (ROPE_ROWS, ROPE_DIM)).astype(np.float32)
    q = rng.uniform(-1, 1, (QK_ROWS, QK_DIM)).astype(np.float32)
    k = rng.uniform(-1, 1, (QK_ROWS, QK_DIM)).astype(np.float32)
    scores = rng.uniform(-8, 8, (SOFT_ROWS, SOFT_COLS)).astype(np.float32)

    kernels = {
        "sinusoidal": time_kernel(lambda: sinusoidal(SIN_ROWS, SIN_DIM), warmup, runs),
        "rope": time_kernel(lambda: rope_half(x), warmup, runs),
        "qk": time_kernel(lambda: qk(q, k), warmup, runs),
        "softmax": time_kernel(lambda: softmax(scores), warmup, runs),
    }
    json.dump({
        "implementation": "numpy",
        "numpy": np.__version__,
        "python": platform.python_version(),
        "executable": sys.executable,
        "blas": blas_library(),
        "runs": runs,
        "warmup": warmup,
        "kernels": kernels,
    }, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
