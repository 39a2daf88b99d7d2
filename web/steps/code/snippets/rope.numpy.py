import numpy as np

d, base = ${d}, ${base}
m, n = ${m}, ${n}
q = np.tile([${pair}], d // 2)
k = np.tile([${pair}], d // 2)

theta = base ** (-np.arange(0, d, 2) / d)

def rotate(x, pos):  # pairs (0, 1), (2, 3), ...
    a, b = x[0::2], x[1::2]
    cos, sin = np.cos(pos * theta), np.sin(pos * theta)
    out = np.empty_like(x)
    out[0::2] = a * cos - b * sin
    out[1::2] = b * cos + a * sin
    return out

print(f"{rotate(q, m) @ rotate(k, n):.${digits}f}")
