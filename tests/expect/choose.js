// Step 16, which one should I use: what the page must show, computed here from the formulas.
// Used by tests/browser/choose.test.js (Chromium) and the cross-engine suite (tests/engines/).

export const ANSWERS = {
  data: ['text', 'image'],
  model: ['decoder', 'encoder'],
  length: ['fixed', 'longer'],
  want: ['baseline', 'checkpoint', 'distance', 'extrapolate', 'llm'],
};
// [conditions, method]: the first row whose conditions all hold gives the recommendation.
export const RULES = [
  [{ data: 'image' }, 'vision'],                        // a grid of patches: 2-D code
  [{ want: 'extrapolate' }, 'alibi'],                   // simplest extrapolation
  [{ want: 'llm', length: 'longer' }, 'rope-scaled'],   // modern LLM with long-context plans
  [{ want: 'llm' }, 'rope'],                            // modern general LLM
  [{ length: 'longer' }, 'rope-scaled'],                // must read past the training length
  [{ want: 'distance', model: 'encoder' }, 't5'], // distance-based relations, no cache
  [{ want: 'distance' }, 'rope'],                       // relative without the cache overhead
  [{ want: 'checkpoint' }, 'learned'],                  // fine-tuning a model that has a table
  [{ want: 'baseline' }, 'sinusoidal'],                 // no parameters
];
export const expected = (a) => RULES.find(([cond]) => Object.entries(cond).every(([k, v]) => a[k] === v))[1];
export const ROW = { 'rope-scaled': 'rope' };  // the table row of a method
export const NAMES = {
  sinusoidal: 'Sinusoidal', learned: 'Learned positions', t5: 'Relative bias (T5)', rope: 'RoPE',
  'rope-scaled': 'RoPE with scaling', alibi: 'ALiBi', vision: '2-D sin-cos or 2-D RoPE',
};

/** A state the cross-engine suite opens (an encoder for distance-based relations), and its readout. */
export function seed() {
  const a = { data: 'text', model: 'encoder', length: 'fixed', want: 'distance' };
  const method = expected(a);
  return {
    query: new URLSearchParams(a).toString(),
    readouts: { method: { value: method, text: NAMES[method] } },
  };
}
