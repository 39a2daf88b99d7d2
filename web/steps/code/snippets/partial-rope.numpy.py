import numpy as np

d, base = ${d}, ${base}
r = ${r}  # GPT-NeoX's rotary_ndims: d * rotary_pct, a quarter of the head
m, n = ${m}, ${n}
x = np.tile([${pair}], d // 2)

inv_freq = 1.0 / base ** (np.arange(0, r, 2) / r)  # the frequencies of a head r wide

def rotate_half(v):  # pairs (i, i + r/2)
    return np.concatenate((-v[r // 2:], v[:r // 2]))

def turn(v, pos):  # the first r dimensions turn, the rest pass through
    angles = np.concatenate((pos * inv_freq, pos * inv_freq))
    part, rest = v[:r], v[r:]
    return np.concatenate((part * np.cos(angles) + rotate_half(part) * np.sin(angles), rest))

print(f"{turn(x, m) @ turn(x, n):.${digits}f}")
