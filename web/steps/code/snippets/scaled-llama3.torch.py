import math
import torch

d, base, original = ${d}, ${base}, ${original}
scaling, factor, pair = "llama3", ${factor}, ${pair}

low_freq_factor, high_freq_factor = 1.0, 4.0
inv_freq = 1.0 / base ** (torch.arange(0, d, 2, dtype=torch.float64) / d)
wavelen = 2 * math.pi / inv_freq
smooth = (original / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
blend = (1 - smooth) * inv_freq / factor + smooth * inv_freq
inv_freq = torch.where(wavelen > original / low_freq_factor, inv_freq / factor,
                    torch.where(wavelen < original / high_freq_factor, inv_freq, blend))
print(f"{2 * math.pi / inv_freq[pair].item():.${digits}f}")
