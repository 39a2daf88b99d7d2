import math
import numpy as np

d, base, original = ${d}, ${base}, ${original}
scaling, factor, pair = "llama3", ${factor}, ${pair}

low_freq_factor, high_freq_factor = 1.0, 4.0
inv_freq = 1.0 / base ** (np.arange(0, d, 2) / d)
wavelen = 2 * math.pi / inv_freq
smooth = (original / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
blend = (1 - smooth) * inv_freq / factor + smooth * inv_freq
inv_freq = np.where(wavelen > original / low_freq_factor, inv_freq / factor,
                    np.where(wavelen < original / high_freq_factor, inv_freq, blend))
print(f"{2 * math.pi / inv_freq[pair]:.${digits}f}")
