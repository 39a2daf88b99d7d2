// Step 1, word order: what the page must show, computed here from the formulas.
// Used by tests/browser/order.test.js (Chromium) and the cross-engine suite (tests/engines/).
import { minus } from '../browser/steps.js';

// The toy model, in float64: 2D embeddings, three word orders, PE(p) = [sin p, cos p].
export const EMB = { Dog: [0.8, 0.2], bites: [0.1, 0.9], man: [0.5, 0.6] };
export const ORDERS = [['Dog', 'bites', 'man'], ['man', 'bites', 'Dog'], ['bites', 'man', 'Dog']];
export const NAMES = ['Dog bites man', 'Man bites dog', 'Bites man dog'];
export const MEANINGS = ['Normal', 'Roles reversed', 'Ungrammatical'];

/** The rows given to attention: embedding of the word at p, plus [sin p, cos p] with PE. */
export function rows(sentence, pe) {
  return ORDERS[sentence].map((w, p) => [EMB[w][0] + (pe ? Math.sin(p) : 0), EMB[w][1] + (pe ? Math.cos(p) : 0)]);
}
/** Q·Kᵀ with Q = K = the rows, no scaling: a 3×3 array of dot products. */
export function scores(sentence, pe) {
  const x = rows(sentence, pe);
  return x.map((a) => x.map((c) => a[0] * c[0] + a[1] * c[1]));
}
export const sortedNine = (mat) => mat.flat().sort((u, v) => u - v);
export const maxGap = (a, c) => Math.max(...a.map((v, i) => Math.abs(v - c[i])));
/** The largest gap between this order's sorted scores and another order's. */
export function change(sentence, pe) {
  const mine = sortedNine(scores(sentence, pe));
  return Math.max(...[0, 1, 2].filter((k) => k !== sentence).map((k) => maxGap(mine, sortedNine(scores(k, pe)))));
}
// Float32 inputs and products in the core; the scores here are float64.
export const TOL = 2e-6;

/** A state the cross-engine suite opens (Man bites dog, with positions), and its readouts. */
export function seed() {
  const [sentence, pe] = [1, true];
  const want = scores(sentence, pe);
  const readouts = {};
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) readouts[`attn-${i}-${j}`] = { value: want[i][j], tol: TOL, text: minus(want[i][j].toFixed(2)) };
  }
  const gap = change(sentence, pe);
  Object.assign(readouts, {
    sentence: { value: sentence, tol: 0, text: NAMES[sentence] },
    meaning: { text: MEANINGS[sentence] },
    change: { value: gap, tol: TOL, text: gap < 1e-9 ? 'Same values!' : `Up to ${minus(gap.toFixed(2))}` },
    same: { value: 0, tol: 0 },
  });
  return { query: `sentence=${sentence}&pe=1`, readouts };
}
