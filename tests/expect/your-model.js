// Step 13, your model: what the page must show for an atlas model, computed here. The plain
// frequencies come from θᵢ = base^(−2i/d); the scaled ones and the attention factor from
// modelPositions in Node (whose numbers tests/js/model-positions.test.js holds to a Python
// transcription of Hugging Face's functions). Used by the cross-engine suite (tests/engines/);
// tests/browser/your-model.test.js checks the same readouts (expectedWith) in Chromium for
// several models.
import { readFileSync } from 'node:fs';
import { loadPosenc, modelPositions } from '../../wasm/posenc.js';

const atlas = JSON.parse(readFileSync(new URL('../../web/data/atlas.json', import.meta.url), 'utf8'));
export const configOf = (id) => atlas.models.find((mo) => mo.id === id).config;

/**
 * What the step's readouts must hold for a config read at length seqLen (0: as Hugging Face loads
 * it), with a loaded core `pe`: pairs turning within
 * L (null without a trained length), pairs never turning within L′, the slowest pair's turns, the
 * attention factor and the layer count; null for a model without RoPE.
 */
export function expectedWith(pe, config, seqLen = 0) {
  const pos = modelPositions(pe, config, seqLen ? { seqLen } : undefined);
  const lead = pos.layers.find((l) => l.rope && l.attention === 'full') ?? pos.layers.find((l) => l.rope);
  if (!lead) return null;
  const { rotaryDim: d, base, invFreq, attentionFactor } = lead.rope;
  const trained = pos.lengths.trained;
  // A text read past the declared context (dynamic scaling) is the context drawn.
  const context = Math.max(pos.lengths.declared ?? pos.lengths.extended, seqLen);
  const plain = Array.from({ length: d / 2 }, (_, i) => base ** (-(2 * i) / d));
  return {
    pairs: d / 2,
    turned: trained === null ? null : plain.filter((t) => (trained * t) / (2 * Math.PI) >= 1).length,
    never: Array.from(invFreq).filter((t) => (context * t) / (2 * Math.PI) < 1).length,
    slowest: (context * Math.min(...invFreq)) / (2 * Math.PI),
    factor: attentionFactor,
    layers: pos.numLayers,
  };
}

/** The state the cross-engine suite opens (Llama 3.1 8B, scaled by llama3's rule), and its readouts. */
export async function seed() {
  const want = expectedWith(await loadPosenc({ simd: true }), configOf('llama-3.1-8b'));
  return {
    query: 'model=llama-3.1-8b',
    readouts: {
      turned: { value: want.turned, tol: 0, text: `${want.turned} of ${want.pairs}` },
      never: { value: want.never, tol: 0 },
      slowest: { value: want.slowest, tol: 1e-9 * want.slowest },
      factor: { value: want.factor, tol: 1e-12 },
    },
  };
}
