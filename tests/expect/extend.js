// Step 12, reading past the training length: what the page must show, computed here from the formulas.
// Used by tests/browser/extend.test.js (Chromium) and the cross-engine suite (tests/engines/).
import { learnedRow } from '../js/reference.js';  // the seeded normal rows of core/learned.cpp

export const D = 128;
export const MODELS = { llama2: { base: 10000, L: 4096 }, llama3: { base: 500000, L: 8192 } };
export const METHODS = ['none', 'linear', 'ntk', 'dynamic', 'yarn', 'llama3'];

// Reference formulas -----------------------------------------------------------------------

export const plainInv = (base) => Array.from({ length: D / 2 }, (_, i) => 1 / base ** ((2 * i) / D));

/** { inv, a }: inverse frequencies and attention factor of `method` at factor s, read to Lr. */
export function reference(method, model, s, Lr) {
  const { base, L } = MODELS[model];
  const f = plainInv(base);
  switch (method) {
    case 'none':
      return { inv: f, a: 1 };
    case 'linear':
      return { inv: f.map((x) => x / s), a: 1 };
    case 'ntk':
      return { inv: plainInv(base * s ** (D / (D - 2))), a: 1 };
    case 'dynamic': {
      // _compute_dynamic_ntk_parameters: seq_len = max(seq_len, max_position_embeddings)
      const seq = Math.max(Lr, L);
      const b = base * ((s * seq) / L - (s - 1)) ** (D / (D - 2));
      return { inv: plainInv(b), a: 1 };
    }
    case 'yarn': {
      // _compute_yarn_parameters: find_correction_range, linear_ramp_factor, get_mscale.
      const corr = (rot) => (D * Math.log(L / (rot * 2 * Math.PI))) / (2 * Math.log(base));
      const low = Math.max(Math.floor(corr(32)), 0);
      let high = Math.min(Math.ceil(corr(1)), D - 1);
      if (low === high) high += 0.001;
      const inv = f.map((x, j) => {
        const ramp = Math.min(1, Math.max(0, (j - low) / (high - low)));
        const extrapolation = 1 - ramp;
        return (x / s) * (1 - extrapolation) + x * extrapolation;
      });
      return { inv, a: 0.1 * Math.log(s) + 1, low, high };
    }
    case 'llama3': {
      // _compute_llama3_parameters with low_freq_factor 1, high_freq_factor 4.
      const lowWavelen = L / 1;
      const highWavelen = L / 4;
      const inv = f.map((x) => {
        const wavelen = (2 * Math.PI) / x;
        if (wavelen < highWavelen) return x;
        if (wavelen > lowWavelen) return x / s;
        const smooth = (L / wavelen - 1) / (4 - 1);
        return ((1 - smooth) * x) / s + smooth * x;
      });
      return { inv, a: 1 };
    }
    default:
      throw new Error(method);
  }
}

/** q(Δ)·k(0) with q = k = all ones: each pair adds a²·2cos(Δθ) (HF scales cos and sin by a). */
export const scoreAt = ({ inv, a }, delta) => a * a * inv.reduce((sum, t) => sum + 2 * Math.cos(delta * t), 0);

// The random pairs of the score plot: 32 queries (seed 41) and 32 keys (seed 42), std 1.
export const RANDOM = Array.from({ length: 32 }, (_, p) => [learnedRow(p, D, { seed: 41, std: 1 }), learnedRow(p, D, { seed: 42, std: 1 })]);
/**
 * The mean of q_p(Δ)·k_p(0) over the random pairs, rotate_half layout (pair i = i, i + d/2): a
 * query pair (a, b) turned by φ against a key pair (c, e) gives (ac + be) cos φ + (ae − bc) sin φ.
 */
export function randomMeanAt({ inv, a }, delta) {
  let sum = 0;
  for (const [q, k] of RANDOM) {
    inv.forEach((t, i) => {
      const [qa, qb, kc, ke] = [q[i], q[i + D / 2], k[i], k[i + D / 2]];
      sum += (qa * kc + qb * ke) * Math.cos(delta * t) + (qa * ke - qb * kc) * Math.sin(delta * t);
    });
  }
  return (a * a * sum) / RANDOM.length;
}

// Reading the page ---------------------------------------------------------------------------

export const SUPER = { '⁻': '-', '⁰': 0, '¹': 1, '²': 2, '³': 3, '⁴': 4, '⁵': 5, '⁶': 6, '⁷': 7, '⁸': 8, '⁹': 9 };
/** An English number as shown, "1,234.5" or "5.248 · 10⁻⁴", and half a unit of its last digit. */
export function parseShown(text) {
  const [mant, exp] = text.replace(/,/g, '').replace(/\u2212/g, '-').split(' · 10');
  const e = exp === undefined ? 0 : Number([...exp].map((c) => SUPER[c]).join(''));
  const digits = (mant.split('.')[1] ?? '').length;
  return { value: Number(mant) * 10 ** e, half: 0.5 * 10 ** (e - digits) };
}

/** True when a shown text rounds `want` (give or take `slack`) to its digits, as the Chromium test reads it. */
export function shows(text, want, slack = 1e-9 * Math.abs(want)) {
  const { value, half } = parseShown(text);
  return Number.isFinite(value) && Math.abs(value - want) <= half * (1 + 1e-9) + slack;
}

/** A state the cross-engine suite opens (LLaMA-2 with YaRN ×16, read at 16 L), and its readouts. */
export function seed() {
  const state = { model: 'llama2', method: 'yarn', factor: 16, read: 16, pair: 25 };
  const Lr = state.read * MODELS[state.model].L;
  const cur = reference(state.method, state.model, state.factor, Lr);
  const theta = reference('none', state.model, state.factor, Lr).inv[state.pair];
  const scaled = cur.inv[state.pair];
  const want = { theta, scaled, ratio: scaled / theta, wavelength: (2 * Math.PI) / scaled, attention: cur.a };
  const readouts = {};
  for (const [name, w] of Object.entries(want)) {
    readouts[name] = { value: w, tol: 1e-9 * Math.abs(w), check: [(v, text) => shows(text, w), `shows ${w} to its digits`] };
  }
  // The score goes through float32 rotations and a float32 dot product of 128 terms.
  const end = scoreAt(cur, Lr);
  readouts.scoreEnd = { value: end, tol: 2e-3, check: [(v, text) => shows(text, end, 2e-3), `shows ${end} to its digits`] };
  return { query: new URLSearchParams(state).toString(), readouts };
}
