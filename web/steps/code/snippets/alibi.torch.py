import math
import torch

def slopes(n):
    if math.log2(n).is_integer():
        return [2 ** (-8 * k / n) for k in range(1, n + 1)]
    c = 2 ** math.floor(math.log2(n))
    return slopes(c) + slopes(2 * c)[0::2][: n - c]

heads, head = ${heads}, ${head}  # head counts from 1
i = ${dist}  # the query position; the keys are j = 0..i
slope = torch.tensor(slopes(heads), dtype=torch.float64)[head - 1]
row = (slope * (torch.arange(i + 1) - i)).float()  # -slope*(i-j)
print(f"{row[0].item():.${digits}f}")
