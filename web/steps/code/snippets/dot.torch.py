import math
import torch

d, base = ${width}, ${base}
i, j = ${i}, ${j}

div_term = torch.exp(torch.arange(0, d, 2, dtype=torch.float64) * (-math.log(base) / d))
pos = torch.tensor([[i], [j]], dtype=torch.float64)
pe = torch.zeros(2, d, dtype=torch.float64)
pe[:, 0::2] = torch.sin(pos * div_term)
pe[:, 1::2] = torch.cos(pos * div_term)
print(f"{torch.dot(pe[0], pe[1]).item():.${digits}f}")
