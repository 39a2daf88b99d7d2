"""PyTorch's side of the training benchmark (tests/bench/train_bench.mjs).

Reads `posenc-train --dump-batches N` on stdin (the trainer's first N batches and its tensor
layout) and trains the same model on them with PyTorch on one CPU thread, written as one would
in PyTorch: a padded batch, every head at once, a causal + padding mask, torch.optim.AdamW and
clip_grad_norm_. Before timing, its loss on the first batch is checked against
tests/train/torch_reference.py (the per-sequence transcription the parity test uses), so both
compute the same model. Prints JSON: tokens per second, steps, seconds, that check.
"""
import json
import math
import os
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "train"))
import torch_reference as ref  # noqa: E402


def padded(batch, pad):
    starts = batch["starts"]
    lengths = [b - a for a, b in zip(starts, starts[1:])]
    B, T = len(lengths), max(lengths)
    tokens = torch.full((B, T), pad, dtype=torch.long)
    flat = torch.tensor(batch["tokens"])
    for s, (a, n) in enumerate(zip(starts, lengths)):
        tokens[s, :n] = flat[a:a + n]
    # Each target row of the packed batch as (sequence, position).
    seq = torch.tensor([next(s for s in range(B) if starts[s] <= r < starts[s + 1]) for r in batch["targetRows"]])
    pos = torch.tensor(batch["targetRows"]) - torch.tensor(starts)[seq]
    return tokens, torch.tensor(lengths), seq, pos, torch.tensor(batch["targetTokens"])


def make_loss(dump):
    c = dump["config"]
    d, heads, layers = int(c["dModel"]), int(c["heads"]), int(c["layers"])
    hd, family, P = d // heads, c["family"], dump["maxPositions"]
    sin_table = ref.sinusoid(P, d, c["base"]).float()
    inv = 1.0 / (c["base"] ** (torch.arange(0, hd, 2, dtype=torch.float64) / hd))
    freqs = torch.arange(P, dtype=torch.float64)[:, None] * inv[None, :]
    cos, sin = torch.cat((freqs, freqs), -1).cos().float(), torch.cat((freqs, freqs), -1).sin().float()
    slopes = torch.tensor(ref.alibi_slopes(heads), dtype=torch.float32)
    dist = torch.arange(P)[None, :] - torch.arange(P)[:, None]  # key - query
    buckets = torch.tensor([[ref.t5_bucket(int(o), int(c["t5Buckets"]), int(c["t5MaxDistance"])) for o in row] for row in dist])

    def loss(params, tokens, lengths, seq, pos, targets):
        B, T = tokens.shape
        x = math.sqrt(d) * params["embed.tokens"][tokens]
        if family == "sinusoidal":
            x = x + sin_table[:T]
        if family == "learned":
            x = x + params["position.table"][:T]
        causal = torch.triu(torch.ones(T, T, dtype=torch.bool), 1)
        bias = torch.zeros(heads, T, T)
        if family == "alibi":
            bias = -slopes[:, None, None] * dist[:T, :T].abs()[None].float()
        if family == "t5":
            bias = params["position.bias"][:, buckets[:T, :T]]
        for li in range(layers):
            p = lambda name: params[f"layers.{li}.{name}"]
            h = F.layer_norm(x, (d,), p("ln1.weight")[0], p("ln1.bias")[0], eps=1e-5)
            q, k, v = (h @ p("attn.qkv")).view(B, T, 3, heads, hd).permute(2, 0, 3, 1, 4)
            if family == "rope":
                q = q * cos[:T] + ref.rotate_half(q) * sin[:T]
                k = k * cos[:T] + ref.rotate_half(k) * sin[:T]
            s = q @ k.transpose(-1, -2) / math.sqrt(hd) + bias
            s = s.masked_fill(causal, float("-inf"))  # padding rows come after every real one
            o = torch.softmax(s, -1) @ v
            x = x + o.transpose(1, 2).reshape(B, T, d) @ p("attn.out")
            h = F.layer_norm(x, (d,), p("ln2.weight")[0], p("ln2.bias")[0], eps=1e-5)
            x = x + F.gelu(h @ p("mlp.up")) @ p("mlp.down")
        hf = F.layer_norm(x[seq, pos], (d,), params["final.ln.weight"][0], params["final.ln.bias"][0], eps=1e-5)
        return F.cross_entropy(hf @ params["head"], targets)

    return loss


def main():
    torch.set_num_threads(1)
    dump = json.load(sys.stdin)
    c = dump["config"]
    torch.manual_seed(0)
    params = {}
    for t in dump["tensors"]:
        std = 1.0 if t["name"].startswith(("embed", "position")) else 0.02
        params[t["name"]] = (torch.randn(t["rows"], t["cols"]) * std).requires_grad_(True)
    for name, v in params.items():
        if ".ln" in name or name.startswith("final.ln"):
            with torch.no_grad():
                v.fill_(1.0 if name.endswith("weight") else 0.0)
    loss_fn = make_loss(dump)
    batches = [padded(b, dump["vocab"] - 1) for b in dump["batches"]]

    # The same model as the parity test's transcription, on the first batch.
    first = dict(dump["batches"][0], config=c, maxPositions=dump["maxPositions"])
    with torch.no_grad():
        want = float(ref.model_loss(first, {k: v.double() for k, v in params.items()})[1])
        got = float(loss_fn(params, *batches[0]))

    decay = [v for n, v in params.items() if v.shape[0] > 1 and v.shape[1] > 1]
    rest = [v for n, v in params.items() if not (v.shape[0] > 1 and v.shape[1] > 1)]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": c["weightDecay"]}, {"params": rest, "weight_decay": 0.0}],
                            lr=c["learningRate"], betas=(0.9, 0.999), eps=1e-8)

    def step(b):
        opt.zero_grad(set_to_none=True)
        loss_fn(params, *b).backward()
        torch.nn.utils.clip_grad_norm_(list(params.values()), c["clip"])
        opt.step()

    # Steps 0-4 warm up; 5.. are timed, as the trainer's own bench does.
    for b in batches[:5]:
        step(b)
    start = time.perf_counter()
    for b in batches[5:]:
        step(b)
    seconds = time.perf_counter() - start
    tokens = sum(len(b["tokens"]) for b in dump["batches"][5:])
    print(json.dumps({"tokensPerSecond": tokens / seconds, "steps": len(batches) - 5, "seconds": seconds,
                      "torch": torch.__version__, "threads": torch.get_num_threads(),
                      "firstLoss": got, "referenceLoss": want}))


if __name__ == "__main__":
    main()
