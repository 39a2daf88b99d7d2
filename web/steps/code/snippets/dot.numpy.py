import numpy as np

d, base = ${width}, ${base}
i, j = ${i}, ${j}

def pe(pos):
    omega = base ** (-np.arange(0, d, 2) / d)
    row = np.empty(d)
    row[0::2] = np.sin(pos * omega)
    row[1::2] = np.cos(pos * omega)
    return row

print(f"{pe(i) @ pe(j):.${digits}f}")
