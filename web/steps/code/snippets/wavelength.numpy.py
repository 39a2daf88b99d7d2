import numpy as np

d, base = ${d}, ${base}
dim = ${wdim}

omega = base ** (-np.arange(0, d, 2) / d)
wavelength = 2 * np.pi / omega[dim // 2]  # dims 2i and 2i+1 share a wave
print(f"{wavelength:.${digits}f}")
