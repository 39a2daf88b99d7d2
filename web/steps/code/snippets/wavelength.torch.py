import math
import torch

d, base = ${d}, ${base}
dim = ${wdim}

div_term = torch.exp(torch.arange(0, d, 2, dtype=torch.float64) * (-math.log(base) / d))
print(f"{2 * math.pi / div_term[dim // 2].item():.${digits}f}")
