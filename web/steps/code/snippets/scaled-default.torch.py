import math
import torch

d, base, original = ${d}, ${base}, ${original}
scaling, factor, pair = "default", ${factor}, ${pair}

inv_freq = 1.0 / base ** (torch.arange(0, d, 2, dtype=torch.float64) / d)
print(f"{2 * math.pi / inv_freq[pair].item():.${digits}f}")
