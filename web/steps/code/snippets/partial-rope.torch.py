import torch

d, base = ${d}, ${base}
r = ${r}  # GPT-NeoX's rotary_ndims: d * rotary_pct, a quarter of the head
m, n = ${m}, ${n}
x = torch.tensor([${pair}] * (d // 2), dtype=torch.float64)

inv_freq = 1.0 / base ** (torch.arange(0, r, 2, dtype=torch.float64) / r)

def rotate_half(v):  # pairs (i, i + r/2)
    return torch.cat((-v[r // 2:], v[:r // 2]))

def turn(v, pos):  # as GPTNeoXAttention: rotate v[:r], concatenate v[r:] unchanged
    emb = torch.cat((pos * inv_freq, pos * inv_freq))
    part, rest = v[:r], v[r:]
    return torch.cat((part * emb.cos() + rotate_half(part) * emb.sin(), rest))

print(f"{torch.dot(turn(x, m), turn(x, n)).item():.${digits}f}")
