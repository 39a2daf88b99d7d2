// Fewer points for the same line: the points of a polyline that lie within `tolerance` of the
// straight line between the points kept around them are dropped (Ramer–Douglas–Peucker). A curve
// that is straight in drawing units (ALiBi's weights against distance on a log axis) keeps its
// two ends; a bend of more than the tolerance keeps the points that make it.

/**
 * Indices of the points to keep, in order (always the first and the last).
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
  const spans = [[0, n - 1]];  // a stack, not recursion: a long wiggly line would recurse deep
  while (spans.length) {
    const [a, b] = spans.pop();
    const du = u[b] - u[a];
    const dv = v[b] - v[a];
    const squared = du * du + dv * dv || 1;
    let worst = -1;
    let far = tolerance;
    for (let k = a + 1; k < b; k++) {
      // Distance to the segment, not to its line: a point past either end is as far as that end.
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
