// Fewer points for the same line (Ramer–Douglas–Peucker, measuring to the segment rather than to
// its line): keep the first and the last point; between two kept points, keep the one farthest
// from the segment joining them if it is more than `tolerance` away, and repeat on both halves.
// Every dropped point then lies within `tolerance` of the drawn segment that passes it. A curve
// that is straight in drawing units (ALiBi's weights against distance on a log axis) keeps its
// two ends.

/**
 * Indices of the points to keep, in order (the first and the last among them, when there are any).
 * @param {ArrayLike<number>} u  the points' horizontal positions, in drawing units
 * @param {ArrayLike<number>} v  their vertical positions, in the same units
 * @param {number} tolerance     the largest distance a dropped point may be from the drawn line
 */
export function keptPoints(u, v, tolerance) {
  const n = u.length;
  if (n <= 2) return Array.from({ length: n }, (_, k) => k);
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  const spans = [[0, n - 1]];  // a stack, not recursion: a long wiggly line would recurse deeply
  while (spans.length) {
    const [a, b] = spans.pop();
    const du = u[b] - u[a];
    const dv = v[b] - v[a];
    const squared = du * du + dv * dv || 1;
    let worst = -1;
    let far = tolerance;
    for (let k = a + 1; k < b; k++) {
      // Distance to the segment, not to its line: a point beyond either end is measured to that end.
      const t = Math.max(0, Math.min(1, ((u[k] - u[a]) * du + (v[k] - v[a]) * dv) / squared));
      const off = Math.hypot(u[k] - u[a] - t * du, v[k] - v[a] - t * dv);
      if (off > far) { far = off; worst = k; }
    }
    if (worst < 0) continue;
    keep[worst] = 1;
    spans.push([a, worst], [worst, b]);
  }
  const out = [];
  for (let k = 0; k < n; k++) if (keep[k]) out.push(k);
  return out;
}
