import math
import numpy as np

d, base, original = ${d}, ${base}, ${original}
scaling, factor, pair = "yarn", ${factor}, ${pair}

inv_freq = 1.0 / base ** (np.arange(0, d, 2) / d)
def correction_dim(turns):
    return d * math.log(original / (turns * 2 * math.pi)) / (2 * math.log(base))
low = max(math.floor(correction_dim(32)), 0)
high = min(math.ceil(correction_dim(1)), d - 1)
if low == high:
    high += 0.001
ramp = np.clip((np.arange(d // 2) - low) / (high - low), 0, 1)
inv_freq = inv_freq * (1 - ramp) + (inv_freq / factor) * ramp
print(f"{2 * math.pi / inv_freq[pair]:.${digits}f}")
