// Step "embedding-plus-position", the numbers: one token embedding e (d = 4, the seed's
// [0.51, −0.22, 0.88, 0.14]) plus the sinusoidal code of its position from core.sinusoidal
// (d = 4, base 10000), x = e + PE(pos); the same token at a second position, x′ = e + PE(pos′),
// and the distance |x − x′|; the lengths of e and PE(pos), and at d = 512 those of the code, of
// a stand-in embedding row at initialisation and of that row scaled by √d.
export const D = 4;
export const BASE = 10000;
export const MAX_POS = 99;
export const EMBEDDING = [0.51, -0.22, 0.88, 0.14];  // the seed's token embedding
export const WIDE = 512;                              // the original transformer's d_model
export const WIDE_SEED = 7;                           // a stand-in embedding row drawn with std 1/√d

/** What the step shows, from the core: the code at every position up front, readout({ pos, other }). */
export function embeddingPlusPositionModel(core) {
  // Every position the sliders reach, once: (MAX_POS + 1) × 4 float32 values from the core.
  const table = core.sinusoidal(MAX_POS + 1, D, { base: BASE });
  const pe = (p) => Array.from(table.subarray(p * D, (p + 1) * D));
  const add = (a, b) => a.map((v, i) => v + b[i]);
  // Lengths from the core's dot products: ‖v‖ = √(v·v).
  const norm = (v, d) => Math.sqrt(core.attention(v, v, d, { softmax: false, scale: 1 })[0]);
  const wideEmbedding = core.learned(1, WIDE, { maxPositions: 1, seed: WIDE_SEED, std: 1 / Math.sqrt(WIDE) });
  const wideE = norm(wideEmbedding, WIDE);
  const normE = norm(EMBEDDING, D);
  return {
    pe,
    /**
     * For positions pos and pos′ = other: PE(pos) (p), PE(pos′) (q), x = e + PE(pos),
     * x′ = e + PE(pos′) (y), the distance |x − x′|, the lengths ‖e‖ and ‖PE(pos)‖, and at
     * d = 512 (wide) ‖PE(pos)‖, ‖e‖ of the stand-in row and √d times it.
     */
    readout({ pos, other }) {
      const p = pe(pos);
      const q = pe(other);
      const x = add(EMBEDDING, p);
      const y = add(EMBEDDING, q);
      // |x − x′| = |PE(pos) − PE(pos′)|: the embedding cancels.
      const distance = Math.sqrt(x.reduce((acc, v, i) => acc + (v - y[i]) ** 2, 0));
      // The wide code at the same position: its length never depends on the position.
      const widePe = norm(core.sinusoidal(1, WIDE, { base: BASE, offset: pos }), WIDE);
      return {
        p, q, x, y, distance, normE, normPe: norm(p, D),
        wide: { pe: widePe, e: wideE, scaled: Math.sqrt(WIDE) * wideE },
      };
    },
  };
}
