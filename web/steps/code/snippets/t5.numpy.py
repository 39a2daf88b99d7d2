import numpy as np

num_buckets, max_distance = ${numBuckets}, ${maxDistance}
bidirectional = ${bidir}
rel = np.array([${rel}])  # key position - query position

nb = num_buckets // 2 if bidirectional else num_buckets
if bidirectional:
    bucket = np.where(rel > 0, nb, 0)
    n = np.abs(rel)
else:
    bucket = np.zeros_like(rel)
    n = np.maximum(-rel, 0)
exact = nb // 2
steps = np.log(np.maximum(n, 1) / exact) / np.log(max_distance / exact) * (nb - exact)
# + 1e-9: at n = 16, 32, 64 the quotient is a whole number that float64 may miss by a hair
large = np.minimum(exact + np.floor(steps + 1e-9).astype(int), nb - 1)
bucket = bucket + np.where(n < exact, n, large)
print(bucket[0])
