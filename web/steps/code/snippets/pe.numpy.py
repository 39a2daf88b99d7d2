import numpy as np

positions, d, base = ${positions}, ${d}, ${base}
pos, dim = ${pos}, ${dim}

omega = base ** (-np.arange(0, d, 2) / d)  # one frequency per sin/cos pair
angles = np.arange(positions)[:, None] * omega
table = np.empty((positions, d))
table[:, 0::2] = np.sin(angles)
table[:, 1::2] = np.cos(angles)
print(f"{table[pos, dim]:.${digits}f}")
