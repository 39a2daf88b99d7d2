import math
import numpy as np

d, base, original = ${d}, ${base}, ${original}
scaling, factor, pair = "linear", ${factor}, ${pair}

inv_freq = 1.0 / base ** (np.arange(0, d, 2) / d)
inv_freq = inv_freq / factor
print(f"{2 * math.pi / inv_freq[pair]:.${digits}f}")
