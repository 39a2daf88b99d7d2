// Step "vision", the numbers: the grid sizes and encodings the step offers, and what the core
// computes for them (core.sincos2d, core.axialRope and core.axialRopeScores, core.learnedGrid
// and core.interpolateGrid, core.sinusoidal for the patch numbers, core.gridSimilarity), each
// table kept while the inputs that made it stay the same.

export const D = 64;                   // per patch: a ViT-B head has 64 dims
export const QUARTER = D / 4;          // frequencies per axis
export const GRIDS = [7, 14, 16, 24];  // ViT-B/32 at 224 px, B/16 at 224, L/14 at 224, B/16 at 384
export const TRAINED = [7, 14];
export const BASES = [100, 10000];
const PAIR = [0.6, 0.4];               // q = k: (0.6, 0.4) in every pair, as in the RoPE step
const Q = Float32Array.from({ length: D }, (_, j) => PAIR[j % 2]);
const SEED = 0;

/** What the step asks of the core, over one cache of the tables it made. */
export function visionModel(core) {
  const cache = new Map();
  const memo = (key, make) => {
    if (!cache.has(key)) cache.set(key, make());
    return cache.get(key);
  };
  const sincosTable = (n, base) => memo(`sincos ${n} ${base}`, () => core.sincos2d(n, n, D, { base }));
  const ropeTable = (n, base) => memo(`rope ${n} ${base}`, () => core.axialRope(Q, n, n, { base }));
  const trainedTable = (t) => memo(`trained ${t}`, () => core.learnedGrid(t, t, D, { seed: SEED }));
  const resizedTable = (t, n) => memo(`resized ${t} ${n}`, () => core.interpolateGrid(trainedTable(t), t, t, D, n, n));
  // The patches numbered row by row, p = r·n + c, and p encoded by the 1-D sinusoidal table.
  const flatTable = (n, base) => memo(`flat ${n} ${base}`, () => core.sinusoidal(n * n, D, { base }));

  return {
    /** Cosine similarity and dot product of every patch with patch (r, c), and the vectors. */
    compute({ method, grid: n, base, train, r, c }) {
      if (method === 'rope') {
        return {
          sims: core.axialRopeScores(n, n, D, r, c, { base, q: Q, cosine: true }),
          dots: core.axialRopeScores(n, n, D, r, c, { base, q: Q }),
          vectors: ropeTable(n, base),
        };
      }
      const table = method === 'sincos' ? sincosTable(n, base) : resizedTable(train, n);
      return {
        sims: core.gridSimilarity(table, D, r * n + c, { cosine: true }),
        dots: core.gridSimilarity(table, D, r * n + c),
        vectors: table,
      };
    },
    /** The learned table as trained (train × train): cosine of every cell with cell (tr, tc). */
    trainedSims: (train, tr, tc) => core.gridSimilarity(trainedTable(train), D, tr * train + tc, { cosine: true }),
    /** The patch numbers in 1-D sinusoidal encoding: cosine of every patch with patch (r, c). */
    flatSims: (n, base, r, c) => core.gridSimilarity(flatTable(n, base), D, r * n + c, { cosine: true }),
    /**
     * Work for idle time, a function each: every table a change can ask for (the grids, bases
     * and training grids the step offers), then one call of RoPE's scores, which a change
     * computes afresh. A first switch of grid or method then finds its tables made, and the core
     * functions they come from already run once: in Chromium the first call of each took 3–7 ms
     * of the first change that needed it.
     */
    ahead: () => [
      ...GRIDS.flatMap((n) => BASES.flatMap((base) => [
        () => sincosTable(n, base), () => flatTable(n, base), () => ropeTable(n, base)])),
      ...TRAINED.flatMap((t) => GRIDS.map((n) => () => resizedTable(t, n))),
      () => core.axialRopeScores(GRIDS[0], GRIDS[0], D, 0, 0, { base: BASES[0], q: Q, cosine: true }),
    ],
  };
}
