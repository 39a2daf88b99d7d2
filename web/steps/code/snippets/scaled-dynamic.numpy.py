import math
import numpy as np

d, base, original = ${d}, ${base}, ${original}
scaling, factor, pair = "dynamic", ${factor}, ${pair}

seq_len = factor * original
base = base * (factor * seq_len / original - (factor - 1)) ** (d / (d - 2))
inv_freq = 1.0 / base ** (np.arange(0, d, 2) / d)
print(f"{2 * math.pi / inv_freq[pair]:.${digits}f}")
