import math
import torch
from torch import nn

positions, d, base = ${positions}, ${d}, ${base}
pos, dim = ${pos}, ${dim}


class SinusoidalPositions(nn.Module):
    """Adds PE(0), ..., PE(seq_len - 1) to a batch-first input [batch, seq_len, d_model]."""

    def __init__(self, d_model, max_len, base=10000.0):
        super().__init__()
        rate = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float64) * (-math.log(base) / d_model))
        angle = torch.arange(max_len, dtype=torch.float64)[:, None] * rate
        table = torch.empty(max_len, d_model, dtype=torch.float64)
        table[:, 0::2] = torch.sin(angle)
        table[:, 1::2] = torch.cos(angle)
        # A buffer moves with the module and is saved in its state_dict, but it is no
        # parameter: the optimiser never changes it.
        self.register_buffer("table", table)

    def forward(self, x):
        return x + self.table[: x.size(1)]


module = SinusoidalPositions(d, max_len=positions, base=base)
out = module(torch.zeros(1, positions, d, dtype=torch.float64))
print(f"{out[0, pos, dim].item():.${digits}f}")
