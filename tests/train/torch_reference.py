"""The trainer's model written again in PyTorch, for the parity test (tests/js/train-parity.test.js).

Reads a JSON list of what `posenc-train --dump-step` prints (initial parameters, the first batch,
the trainer's logits, loss, gradients and parameters after one AdamW update) on stdin, rebuilds
the same model from the formulas with torch autograd, and prints a JSON list with the largest
differences of each (one process for every dump: importing torch takes about a second).

Written from the descriptions (nanoGPT's pre-LN block; HF's rotate_half and T5
_relative_position_bucket; fairseq ALiBi get_slopes; the Transformer's sinusoid; FIRE's module as
Li et al. print it; Llama 4's rule for which layers skip RoPE; Scalable-Softmax's
softmax(s · log n · z)), not from the C++ code: what must agree is the maths. Every position term
reads the dump's position ids, so a batch with randomised positions is checked as it is drawn.
"""
import json
import math
import sys

import torch
import torch.nn.functional as F


def sinusoid(positions, d, base):
    pe = torch.zeros(positions, d, dtype=torch.float64)
    pos = torch.arange(positions, dtype=torch.float64)[:, None]
    div = torch.exp(torch.arange(0, d, 2, dtype=torch.float64) * (-math.log(base) / d))
    pe[:, 0::2] = torch.sin(pos * div)
    pe[:, 1::2] = torch.cos(pos * div)[:, : d // 2]
    return pe


def rotate_half(x):
    h = x.shape[-1] // 2
    return torch.cat((-x[..., h:], x[..., :h]), dim=-1)


def partial_rope(x, positions, base):
    # GPT-NeoX (HF modeling_gpt_neox.py): rotary_ndims = head_size * rotary_pct (0.25), RoPE on
    # x[..., :rotary_ndims] with that width's frequencies, the rest passed through.
    r = max(2, x.shape[-1] // 8 * 2)
    return torch.cat((rope(x[..., :r], positions, base), x[..., r:]), dim=-1)


def rope(x, positions, base):
    hd = x.shape[-1]
    inv = 1.0 / (base ** (torch.arange(0, hd, 2, dtype=torch.float64) / hd))
    freqs = positions[:, None].to(torch.float64) * inv[None, :]
    emb = torch.cat((freqs, freqs), dim=-1)
    return x * emb.cos() + rotate_half(x) * emb.sin()


def t5_bucket(relative_position, num_buckets, max_distance):
    # Unidirectional (a decoder): only keys at or before the query, n = max(-rp, 0).
    n = max(-relative_position, 0)
    max_exact = num_buckets // 2
    if n < max_exact:
        return n
    large = max_exact + int(math.log(n / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact))
    return min(large, num_buckets - 1)


def alibi_slopes(n):
    def power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        return [start * start ** i for i in range(n)]

    if math.log2(n).is_integer():
        return power_of_2(n)
    closest = 2 ** math.floor(math.log2(n))
    return power_of_2(closest) + alibi_slopes(2 * closest)[0::2][: n - closest]


def fire_bias(params, layer, pos, threshold0):
    """FIRE (Li et al. 2024) for one sequence: heads x n x n, b(i, j) = f(psi(i - j) / psi(max(i, L)))."""
    p = lambda name: params[f"position.fire.{layer}.{name}"]
    c = p("c")[0, 0]
    threshold = torch.abs(p("threshold")[0, 0] * threshold0)
    pos = pos.to(c.dtype)
    distance = pos[:, None] - pos[None, :]
    normaliser = torch.maximum(pos, threshold)[:, None].expand_as(distance)
    psi = lambda x: torch.log(torch.abs(c * x) + 1)
    x = psi(distance) / (psi(normaliser) + 1e-6)
    hidden = torch.relu(x[..., None] * p("in.weight")[0] + p("in.bias")[0])  # n x n x 32
    return (hidden @ p("out.weight")).permute(2, 0, 1)  # no output bias (fire.hpp: it cancels in the softmax)


def model_loss(dump, params):
    c = dump["config"]
    d, heads, layers = int(c["dModel"]), int(c["heads"]), int(c["layers"])
    hd = d // heads
    family = c["family"]
    tokens = torch.tensor(dump["tokens"])
    positions = torch.tensor(dump["positions"])
    starts = dump["starts"]

    x = math.sqrt(d) * params["embed.tokens"][tokens]
    if family == "sinusoidal":
        x = x + sinusoid(dump["maxPositions"], d, c["base"]).to(x.dtype)[positions]
    if family == "learned":
        x = x + params["position.table"][positions]

    def bias_for(h, pos):
        # Offsets of the rows' position ids: the drawn distances when positions are randomised.
        i = pos[:, None]
        j = pos[None, :]
        n = len(pos)
        if family == "alibi":
            return -alibi_slopes(heads)[h] * (i - j).abs().to(x.dtype)
        if family == "t5":
            buckets = torch.tensor([[t5_bucket(int(pos[jj] - pos[ii]), int(c["t5Buckets"]), int(c["t5MaxDistance"]))
                                     for jj in range(n)] for ii in range(n)])
            return params["position.bias"][h][buckets]
        return torch.zeros(n, n, dtype=x.dtype)

    def rotates(layer):
        if family in ("rope", "partial-rope"):
            return True
        # Llama 4's no_rope_layers: layer i rotates when (i + 1) % interval != 0.
        return family == "rope-nope" and (layer + 1) % int(c["nopeEvery"]) != 0

    for li in range(layers):
        p = lambda name: params[f"layers.{li}.{name}"]
        h1 = F.layer_norm(x, (d,), p("ln1.weight")[0], p("ln1.bias")[0], eps=1e-5)
        qkv = h1 @ p("attn.qkv")
        outs = []
        for a, b in zip(starts, starts[1:]):
            n = b - a
            pos = positions[a:b]
            mask = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)
            fire = fire_bias(params, li, pos, dump["fireThreshold"]) if family == "fire" else None
            per_head = []
            for h in range(heads):
                q = qkv[a:b, h * hd:(h + 1) * hd]
                k = qkv[a:b, d + h * hd:d + (h + 1) * hd]
                v = qkv[a:b, 2 * d + h * hd:2 * d + (h + 1) * hd]
                if rotates(li) and family != "partial-rope":
                    q, k = rope(q, pos, c["base"]), rope(k, pos, c["base"])
                if family == "partial-rope":
                    q, k = partial_rope(q, pos, c["base"]), partial_rope(k, pos, c["base"])
                s = q @ k.T / math.sqrt(hd) + bias_for(h, pos)
                if fire is not None:
                    s = s + fire[h]
                if c["scalableSoftmax"]:
                    # SSMax: row i attends n_i = i + 1 keys; the whole score vector times s_h log n_i.
                    keys = torch.arange(1, n + 1, dtype=s.dtype)[:, None]
                    s = s * (p("attn.temperature")[0, h] * torch.log(keys))
                s = s.masked_fill(mask, float("-inf"))
                per_head.append(torch.softmax(s, dim=-1) @ v)
            outs.append(torch.cat(per_head, dim=-1))
        x = x + torch.cat(outs, dim=0) @ p("attn.out")
        h2 = F.layer_norm(x, (d,), p("ln2.weight")[0], p("ln2.bias")[0], eps=1e-5)
        x = x + F.gelu(h2 @ p("mlp.up")) @ p("mlp.down")

    rows = torch.tensor(dump["targetRows"])
    hf = F.layer_norm(x[rows], (d,), params["final.ln.weight"][0], params["final.ln.bias"][0], eps=1e-5)
    logits = hf @ params["head"]
    return logits, F.cross_entropy(logits, torch.tensor(dump["targetTokens"]))


def tensors(dump, values, dtype):
    flat = torch.tensor(values, dtype=dtype)
    out = {}
    for t in dump["tensors"]:
        out[t["name"]] = flat[t["offset"]:t["offset"] + t["rows"] * t["cols"]].reshape(t["rows"], t["cols"]).clone()
    return out


def flat(dump, per_name):
    return torch.cat([per_name[t["name"]].reshape(-1) for t in dump["tensors"]])


def max_rel(a, b):
    scale = max(float(b.abs().max()), 1e-30)
    return float((a - b).abs().max()) / scale


def compare(dump):
    c = dump["config"]
    params = tensors(dump, dump["parameters"], torch.float64)
    for v in params.values():
        v.requires_grad_(True)
    logits, loss = model_loss(dump, params)
    loss.backward()
    grads = {k: v.grad for k, v in params.items()}

    ours_logits = torch.tensor(dump["logits"], dtype=torch.float64).reshape(logits.shape)
    ours_grads = tensors(dump, dump["gradients"], torch.float64)
    # Per tensor: the largest difference and torch's largest entry (the test sets the tolerance:
    # relative to the entry, with a floor at the model's largest gradient).
    top = max(float(g.abs().max()) for g in grads.values())
    per_tensor = {name: {"diff": float((ours_grads[name] - grads[name]).abs().max()), "scale": float(grads[name].abs().max())}
                  for name in grads}
    zero_both = [name for name in grads if float(grads[name].abs().max()) == 0 and float(ours_grads[name].abs().max()) == 0]

    # One AdamW update in torch, from our gradients (so the comparison is of the optimiser alone):
    # clip_grad_norm_ over every tensor, decay on the tensors the dump marks.
    dtype = torch.float64 if dump["precision"] == "double" else torch.float32
    start = tensors(dump, dump["parameters"], dtype)
    given = tensors(dump, dump["gradients"], dtype)
    decay = {t["name"] for t in dump["tensors"] if t["decay"]}
    for name, v in start.items():
        v.requires_grad_(True)
        v.grad = given[name]
    groups = [{"params": [v for n, v in start.items() if n in decay], "weight_decay": c["weightDecay"]},
              {"params": [v for n, v in start.items() if n not in decay], "weight_decay": 0.0}]
    opt = torch.optim.AdamW(groups, lr=dump["learningRate"], betas=(0.9, 0.999), eps=1e-8)
    norm = torch.nn.utils.clip_grad_norm_(list(start.values()), c["clip"]) if c["clip"] > 0 else None
    opt.step()
    updated = flat(dump, {k: v.detach() for k, v in start.items()}).to(torch.float64)
    ours_updated = torch.tensor(dump["updated"], dtype=torch.float64)

    return {
        "family": c["family"], "precision": dump["precision"],
        "loss": float(loss), "oursLoss": dump["loss"],
        "lossRel": abs(float(loss) - dump["loss"]) / float(loss),
        "logitsRel": max_rel(ours_logits, logits.detach()),
        "grad": per_tensor, "gradTop": top, "zeroGradients": zero_both, "tensorCount": len(grads),
        "gradNorm": float(norm) if norm is not None else None, "oursGradNorm": dump["gradNorm"],
        "updatedAbs": float((ours_updated - updated).abs().max()),
        "learningRate": dump["learningRate"],
    }


if __name__ == "__main__":
    torch.set_num_threads(1)
    print(json.dumps([compare(d) for d in json.load(sys.stdin)]))
