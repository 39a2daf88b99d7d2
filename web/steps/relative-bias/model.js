// Step "relative-bias", the numbers of its three panels: the sizes, T5's bucket counts, and what
// the core computes for a state: Shaw's clip index table (core.shawIndex), T5's buckets of every
// offset of the sequence and what the readouts say of the chosen pair (core.t5Bucket), and
// Transformer-XL's four terms for the pair and for every key (core.transformerXlTerms / Row /
// Inputs). DOM-free: tests/js/relative-bias-model.test.js. The panels (shaw.js, t5.js, xl.js)
// format and draw.

export const SHAW_LEN = 16;
export const XL_LEN = 24;
export const XL_DIM = 16;
export const XL_BASE = 10000;
export const T5_LEN = { min: 16, max: 512, step: 16 };
export const T5_PRESET = { nb: 32, maxd: 128, bidir: true };

// T5's buckets per direction and how many of them are exact (one distance each).
export const perSide = (nb, bidir) => (bidir ? nb / 2 : nb);
export const exactCount = (nb, bidir) => Math.floor(perSide(nb, bidir) / 2);

/** What the three panels ask of the core, the last table of each kept. */
export function relativeBiasModel(core) {
  let shawTable = null;  // { k, index }
  let t5Table = null;    // the buckets of the last (len, nb, maxd, bidir)

  /** Shaw: the index table for k (clip(j − i, −k, k) + k), and the pair's readouts. */
  function shaw({ k, i, j }) {
    if (shawTable?.k !== k) {
      const index = core.shawIndex(SHAW_LEN, SHAW_LEN, k);
      shawTable = { k, index, clipped: Float32Array.from(index, (x) => x - k) };
    }
    const { index, clipped } = shawTable;
    const at = index[i * SHAW_LEN + j];
    return {
      index,                  // SHAW_LEN × SHAW_LEN
      clipped,                // the map's values: the clipped distance of every pair
      row: index.subarray(i * SHAW_LEN, (i + 1) * SHAW_LEN),
      at, clippedAt: at - k, distance: j - i, size: 2 * k + 1,
    };
  }

  /**
   * T5: the bucket of every offset key − query from −reach to +reach (every pair of the sequence,
   * and far enough past maxd to see that the last bucket never ends), the map's shade of every
   * pair (the bucket within its direction, negative for keys before the query) and the number of
   * buckets the sequence uses. Kept while the settings stay.
   */
  function t5Buckets({ len, nb, maxd, bidir }) {
    const key = `${len}/${nb}/${maxd}/${bidir}`;
    if (t5Table?.key === key) return t5Table;
    const reach = Math.max(len - 1, maxd + 1);
    const rel = Int32Array.from({ length: 2 * reach + 1 }, (_, n) => n - reach);
    const buckets = core.t5Bucket(rel, { bidirectional: bidir, numBuckets: nb, maxDistance: maxd });
    const bucketAt = (r) => buckets[r + reach];
    const side = perSide(nb, bidir);
    const shade = Float32Array.from(rel, (r, n) => (bidir && r > 0 ? buckets[n] - side : -buckets[n]));
    const cells = new Float32Array(len * len);
    // Row q is the stretch of offsets −q .. len − 1 − q.
    for (let q = 0; q < len; q++) cells.set(shade.subarray(reach - q, reach - q + len), q * len);
    const used = new Set();
    for (let r = -(len - 1); r <= len - 1; r++) used.add(bucketAt(r));
    t5Table = { key, reach, rel, buckets, bucketAt, side, cells, used: used.size };
    return t5Table;
  }

  /**
   * T5, the chosen pair: its offset and bucket; n, the distance the bucket formula reads; the
   * region of the staircase it falls in; the distances that share its bucket (same side); the
   * staircases of keys before and after the query against the distance, and the first distance
   * at which the keys before reach the last bucket (−1: never, within the sequence).
   */
  function t5(values) {
    const { len, bidir, ti, tj } = values;
    const s = t5Buckets(values);
    const rp = tj - ti;
    const bucket = s.bucketAt(rp);
    const { side } = s;
    const exact = Math.floor(side / 2);
    const after = bidir && rp > 0;
    const n = bidir ? Math.abs(rp) : Math.max(-rp, 0);
    const inSide = after ? bucket - side : bucket;
    const future = !bidir && rp > 0;
    const region = future ? 'future' : inSide === side - 1 && n >= exact ? 'last' : n < exact ? 'exact' : 'log';
    let range;
    if (future) range = { kind: 'future' };
    else {
      const sameSide = (r) => (bidir ? Math.sign(r) === Math.sign(rp) || (rp === 0 && r === 0) : r <= 0);
      let lo = rp;
      let hi = rp;
      while (lo - 1 >= -s.reach && sameSide(lo - 1) && s.bucketAt(lo - 1) === bucket) lo--;
      while (hi + 1 <= s.reach && sameSide(hi + 1) && s.bucketAt(hi + 1) === bucket) hi++;
      const [near, far] = [Math.abs(rp < 0 ? hi : lo), Math.abs(rp < 0 ? lo : hi)];
      const open = Math.abs(rp < 0 ? lo : hi) === s.reach;
      range = { kind: open ? 'open' : 'span', from: near, to: far };
    }
    const distances = Float64Array.from({ length: len }, (_, d) => d);
    const before = Float64Array.from(distances, (d) => s.bucketAt(-d));
    const later = Float64Array.from(distances, (d) => s.bucketAt(d));
    return {
      table: s, rp, bucket, side, exact, after, n, inSide, region, range, distances, before, later,
      lastFrom: before.indexOf(side - 1),
    };
  }

  /** Transformer-XL: the pair's four terms and score, and the terms of query xi against every key. */
  function xl({ xi, xj, seed }) {
    const opts = { seed, base: XL_BASE };
    const one = core.transformerXlTerms(xi, xj, XL_DIM, opts);
    const terms = [one.contentContent, one.contentPosition, one.globalContent, one.globalPosition];
    const row = core.transformerXlRow(xi, XL_LEN, XL_DIM, opts);  // [(a), (b), (c), (d)] per key
    const columns = [0, 1, 2, 3].map((t) => Float64Array.from({ length: XL_LEN }, (_, c) => row[4 * c + t]));
    const sum = Float64Array.from({ length: XL_LEN }, (_, c) => row[4 * c] + row[4 * c + 1] + row[4 * c + 2] + row[4 * c + 3]);
    // The plot's range: every term and sum, out to the next half beyond, and half a unit more.
    let min = Infinity;
    let max = -Infinity;
    for (const v of [...row, ...sum]) [min, max] = [Math.min(min, v), Math.max(max, v)];
    return {
      terms, score: one.score, row, columns, sum, distance: xi - xj,
      lo: Math.floor(min * 2) / 2 - 0.5, hi: Math.ceil(max * 2) / 2 + 0.5,
    };
  }

  /** Transformer-XL: the example vectors of the pair (the CSV). */
  const xlInputs = ({ xi, xj, seed }) => core.transformerXlInputs(xi, xj, XL_DIM, { seed, base: XL_BASE });

  return { shaw, t5, t5Buckets, xl, xlInputs };
}
