// Plain-JavaScript versions of the four benchmarked kernels: what a careful JS developer would
// write without WebAssembly. Typed arrays, frequencies precomputed once per call, Math.sin /
// Math.cos / Math.exp (float64, then stored as float32), loops that walk memory in order.
// Each returns a new Float32Array, as the wasm API does.

/** Sinusoidal table, rows = positions 0..positions-1: [sin(p w0), cos(p w0), sin(p w1), ...]. */
export function sinusoidal(positions, dModel, base = 10000) {
  const half = Math.ceil(dModel / 2);
  const freq = new Float64Array(half);
  const step = -Math.log(base) / dModel;
  for (let i = 0; i < half; i++) freq[i] = Math.exp(2 * i * step);
  const out = new Float32Array(positions * dModel);
  const pairs = dModel >> 1;
  for (let p = 0; p < positions; p++) {
    const row = p * dModel;
    for (let i = 0; i < pairs; i++) {
      const a = p * freq[i];
      out[row + 2 * i] = Math.sin(a);
      out[row + 2 * i + 1] = Math.cos(a);
    }
    if (dModel & 1) out[row + dModel - 1] = Math.sin(p * freq[pairs]);
  }
  return out;
}

/** RoPE, half layout (pairs i, i + dim/2), row r at position r; returns the rotated copy. */
export function ropeApplyHalf(x, rows, dim, base = 10000) {
  const n = dim >> 1;
  const invFreq = new Float64Array(n);
  for (let i = 0; i < n; i++) invFreq[i] = 1 / Math.pow(base, (2 * i) / dim);
  const s = new Float64Array(n);
  const c = new Float64Array(n);
  const out = new Float32Array(rows * dim);
  for (let r = 0; r < rows; r++) {
    for (let i = 0; i < n; i++) {
      const a = r * invFreq[i];
      s[i] = Math.sin(a);
      c[i] = Math.cos(a);
    }
    const o = r * dim;
    for (let i = 0; i < n; i++) {
      const av = x[o + i];
      const bv = x[o + i + n];
      out[o + i] = av * c[i] - bv * s[i];
      out[o + i + n] = bv * c[i] + av * s[i];
    }
  }
  return out;
}

/**
 * scale * Q K^T (q: rq x d, k: rk x d, row-major). Both operands are read along their rows, so
 * every dot product walks contiguous memory; four rows of K share each load of q[t].
 */
export function qk(q, rq, k, rk, d, scale = 1 / Math.sqrt(d)) {
  const out = new Float32Array(rq * rk);
  for (let i = 0; i < rq; i++) {
    const qi = i * d;
    const oi = i * rk;
    let j = 0;
    for (; j + 4 <= rk; j += 4) {
      const k0 = j * d, k1 = k0 + d, k2 = k1 + d, k3 = k2 + d;
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      for (let t = 0; t < d; t++) {
        const a = q[qi + t];
        s0 += a * k[k0 + t];
        s1 += a * k[k1 + t];
        s2 += a * k[k2 + t];
        s3 += a * k[k3 + t];
      }
      out[oi + j] = s0 * scale;
      out[oi + j + 1] = s1 * scale;
      out[oi + j + 2] = s2 * scale;
      out[oi + j + 3] = s3 * scale;
    }
    for (; j < rk; j++) {
      const kj = j * d;
      let s = 0;
      for (let t = 0; t < d; t++) s += q[qi + t] * k[kj + t];
      out[oi + j] = s * scale;
    }
  }
  return out;
}

/** Stable softmax of each row of a rows x cols matrix; returns a new array. */
export function softmaxRows(scores, rows, cols) {
  const out = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    const o = r * cols;
    let m = -Infinity;
    for (let j = 0; j < cols; j++) if (scores[o + j] > m) m = scores[o + j];
    if (m === -Infinity) continue;  // nothing to attend to: zeros, as the core does
    let sum = 0;
    for (let j = 0; j < cols; j++) {
      const e = Math.exp(scores[o + j] - m);
      out[o + j] = e;
      sum += e;
    }
    const inv = 1 / sum;
    for (let j = 0; j < cols; j++) out[o + j] *= inv;
  }
  return out;
}
