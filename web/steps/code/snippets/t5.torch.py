import math
import torch

num_buckets, max_distance = ${numBuckets}, ${maxDistance}
bidirectional = ${bidir}
rel = torch.tensor([${rel}])  # key position - query position

nb = num_buckets
bucket = torch.zeros_like(rel)
if bidirectional:
    nb //= 2
    bucket += (rel > 0).long() * nb
    n = rel.abs()
else:
    n = (-rel).clamp(min=0)
exact = nb // 2
steps = torch.log(n.clamp(min=1).double() / exact) / math.log(max_distance / exact) * (nb - exact)
# + 1e-9: at n = 16, 32, 64 the quotient is a whole number that float64 may miss by a hair
large = (exact + torch.floor(steps + 1e-9).long()).clamp(max=nb - 1)
bucket += torch.where(n < exact, n, large)
print(bucket.item())
