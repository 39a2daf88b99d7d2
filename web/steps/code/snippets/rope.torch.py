import torch

d, base = ${d}, ${base}
m, n = ${m}, ${n}
q = torch.tensor([${pair}] * (d // 2), dtype=torch.float64)
k = torch.tensor([${pair}] * (d // 2), dtype=torch.float64)

freqs = 1.0 / base ** (torch.arange(0, d, 2, dtype=torch.float64) / d)

def rotate(x, pos):  # pair (2i, 2i+1) as a complex number, turned by pos*freq
    z = torch.view_as_complex(x.reshape(-1, 2))
    turn = torch.polar(torch.ones_like(freqs), pos * freqs)
    return torch.view_as_real(z * turn).flatten()

print(f"{torch.dot(rotate(q, m), rotate(k, n)).item():.${digits}f}")
