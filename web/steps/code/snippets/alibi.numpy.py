import math
import numpy as np

def slopes(n):
    if math.log2(n).is_integer():
        return [2 ** (-8 * k / n) for k in range(1, n + 1)]
    c = 2 ** math.floor(math.log2(n))
    return slopes(c) + slopes(2 * c)[0::2][: n - c]

heads, head = ${heads}, ${head}  # head counts from 1
i = ${dist}  # the query position; the keys are j = 0..i
slope = slopes(heads)[head - 1]
row = (slope * (np.arange(i + 1) - i)).astype(np.float32)  # -slope*(i-j)
print(f"{row[0]:.${digits}f}")
