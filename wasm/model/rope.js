// One RoPE setting of a config (one rope_parameters dict) read the way Hugging Face transformers
// reads it, and turned into the core's options for ropeFrequencies. The frequencies and the
// attention factor then come from the core; this file only decides which numbers go in.
//
// Matched against the newest modeling_rope_utils.py in the code index (the rope_parameters era:
// RotaryEmbeddingConfigMixin.standardize_rope_params and the _compute_*_parameters functions;
// stored-file id 64056737866, 101,147 characters, which the index does not name by commit), and
// for the older yarn factor override against cyyever/transformers@89539b06 (a fork of
// huggingface/transformers) src/transformers/modeling_rope_utils.py.
//
// How HF fills a dict before computing (standardize_rope_params, case 1):
//   rope_type  = rope_type, else the legacy `type`, else 'default'
//   rope_theta = the dict's, else the config's rope_theta, else the class's default_theta
//   for llama3, yarn and longrope, original_max_position_embeddings = the config's top-level
//   original_max_position_embeddings when it has one (Phi-3 keeps it there; it wins over the
//   dict's), else the dict's, else max_position_embeddings.

import { checkNumber, numberList } from './fields.js';

export const ROPE_TYPES = ['default', 'linear', 'dynamic', 'yarn', 'longrope', 'llama3'];

const FACTOR = { min: 1, max: 1e6 };
const POSITIVE = { min: 0, max: 1e6, exclusiveMin: true };
const LENGTH = { min: 1, max: 2 ** 31 - 1, integer: true };

// YaRN's and LongRoPE's default attention factors, as HF computes them when the dict gives none
// (get_mscale in _compute_yarn_parameters; the sqrt in _compute_longrope_parameters). Used only
// for the alternatives reported beside the core's numbers, never in place of them.
const mscale = (scale, m = 1) => (scale <= 1 ? 1 : 0.1 * m * Math.log(scale) + 1);

/**
 * Reads one rope dict. `p` is its Fields (null: no dict, plain RoPE); `ctx` holds what lives
 * outside it: { theta, thetaField, maxPositions, topOriginal, headDim, rotaryDim (when the family
 * fixes it), partialRotaryFactor, seqLen, allowMrope, truncateFromOuter }.
 * Returns { ropeType, base, rotaryDim, scaling, trained, extended, factor, mropeSection, notes,
 * alternative } where `scaling` is the core's options.scaling (null for plain RoPE) and
 * `alternative` (yarn only) the same setting under transformers 4.4x–4.55's factor override.
 */
export function readRope(p, ctx) {
  const notes = [];
  const name = (key) => (p ? p.name(key) : key);

  // rope_type, or the legacy `type` (HF's check drops `type` from the keys it warns about).
  let ropeType = 'default';
  if (p) {
    const allowed = ctx.allowMrope ? [...ROPE_TYPES, 'mrope'] : ROPE_TYPES;
    const legacy = p.choice('type', allowed, undefined);
    ropeType = p.choice('rope_type', allowed, legacy ?? 'default');
    // Qwen2-VL and Qwen2.5-VL write type 'mrope'; their config classes rename it 'default' (the
    // sections only say which position id each pair reads; the frequencies are plain RoPE).
    if (ropeType === 'mrope') ropeType = 'default';
  }

  const base = p?.has('rope_theta')
    ? p.number('rope_theta', { min: 1, max: 1e12, exclusiveMin: true })
    : ctx.theta;

  let rotaryDim = ctx.rotaryDim;
  if (rotaryDim === undefined) {
    const prf = ctx.partialRotaryFactor ?? (p?.has('partial_rotary_factor')
      ? p.number('partial_rotary_factor', { min: 0, max: 1, exclusiveMin: true }) : 1);
    rotaryDim = Math.trunc(ctx.headDim * prf);  // HF: int(head_dim * partial_rotary_factor)
  }
  if (rotaryDim < 2 || rotaryDim % 2 !== 0) {
    throw new RangeError(`the rotary width int(head_dim · partial_rotary_factor) = ${rotaryDim} must be even and at least 2 (head_dim ${ctx.headDim})`);
  }

  // Only Qwen's VL classes read mrope_section; elsewhere HF warns about an unrecognised key and
  // goes on, so it stays unread and is listed as ignored.
  let mropeSection = null;
  if (ctx.allowMrope && p?.has('mrope_section')) {
    const list = p.list('mrope_section', 8);
    mropeSection = numberList(list, name('mrope_section'), { min: 1, max: 4096, integer: true });
    const pairs = mropeSection.reduce((a, b) => a + b, 0);
    if (pairs * 2 !== rotaryDim) {
      throw new RangeError(`${name('mrope_section')} must add up to ${rotaryDim / 2} pairs (head_dim / 2), got ${pairs}`);
    }
  }

  const original = () => {
    if (ctx.topOriginal !== undefined) {
      if (p?.has('original_max_position_embeddings')) {
        p.get('original_max_position_embeddings');
        notes.push({ code: 'original-from-top-level', field: 'original_max_position_embeddings', message: 'the top-level original_max_position_embeddings wins over the one inside the rope dict, as in HF' });
      }
      return ctx.topOriginal;
    }
    if (p?.has('original_max_position_embeddings')) return p.number('original_max_position_embeddings', LENGTH);
    if (ctx.maxPositions === undefined) {
      throw new TypeError(`${name('original_max_position_embeddings')} is missing and so is max_position_embeddings: ${ropeType} needs the trained length`);
    }
    return ctx.maxPositions;
  };
  const requireMax = (why) => {
    if (ctx.maxPositions === undefined) throw new TypeError(`max_position_embeddings is missing: ${why}`);
    return ctx.maxPositions;
  };
  const factorField = () => p.number('factor', FACTOR);

  const out = { ropeType, base, rotaryDim, scaling: null, trained: ctx.maxPositions ?? null, extended: ctx.maxPositions ?? null, factor: 1, mropeSection, notes, alternative: null, composed: null };

  switch (ropeType) {
    case 'default':
      break;
    case 'linear': {
      out.factor = factorField();
      out.scaling = { type: 'linear', factor: out.factor };
      // HF's linear type states no trained length (Gemma 3 was trained at 32k and scaled by 8 to
      // 128k, not from 131072 / 8): the trained length is unknown from the config.
      out.trained = null;
      notes.push({ code: 'linear-no-trained-length', field: name('factor'), message: 'linear scaling states no trained length; max_position_embeddings is taken as the extended one' });
      break;
    }
    case 'dynamic': {
      out.factor = factorField();
      const maxPositions = requireMax('dynamic scaling grows the base past it');
      if (rotaryDim < 4) throw new RangeError(`${name('rope_type')} 'dynamic' needs a rotary width of at least 4 (its exponent is d/(d−2)), got ${rotaryDim}`);
      out.scaling = { type: 'dynamic', factor: out.factor, maxPositions };
      if (ctx.seqLen !== undefined) out.scaling.seqLen = ctx.seqLen;
      // Left unread on purpose, so it is listed as ignored too.
      if (Object.hasOwn(p.object, 'original_max_position_embeddings')) {
        notes.push({ code: 'dynamic-ignores-original', field: name('original_max_position_embeddings'), message: 'HF\'s dynamic scaling uses max_position_embeddings, not original_max_position_embeddings (a TODO in modeling_rope_utils.py)' });
      }
      out.trained = maxPositions;
      out.extended = null;  // no end: the base keeps growing with the sequence
      break;
    }
    case 'yarn': {
      const L = original();
      const stated = p.get('factor');
      if (stated === undefined) throw new TypeError(`${name('factor')} is missing: yarn requires it (null derives it from max_position_embeddings / original_max_position_embeddings)`);
      // Newest HF: the stated factor; only a null one is derived (transformers#40320).
      const factor = stated === null
        ? checkNumber(requireMax('a null yarn factor is max_position_embeddings / original_max_position_embeddings') / L, `${name('factor')} (derived)`, FACTOR)
        : checkNumber(stated, name('factor'), FACTOR);
      const scaling = { type: 'yarn', factor, originalMaxPositions: L };
      // `or 32` / `or 1` in HF: 0 and null both fall back.
      const betaFast = p.get('beta_fast');
      const betaSlow = p.get('beta_slow');
      if (betaFast) scaling.betaFast = checkNumber(betaFast, name('beta_fast'), POSITIVE);
      if (betaSlow) scaling.betaSlow = checkNumber(betaSlow, name('beta_slow'), POSITIVE);
      // `if mscale and mscale_all_dim`: either null or 0 leaves the default factor.
      const ms = p.has('mscale') ? p.number('mscale', { min: 0, max: 1e6 }) : 0;
      const msAll = p.has('mscale_all_dim') ? p.number('mscale_all_dim', { min: 0, max: 1e6 }) : 0;
      if (ms) scaling.mscale = ms;
      if (msAll) scaling.mscaleAllDim = msAll;
      if (p.has('attention_factor')) scaling.attentionFactor = p.number('attention_factor', POSITIVE);
      // HF reads truncate from config.rope_parameters, the outer dict: a per-layer-type dict's own
      // truncate never reaches it.
      if (ctx.truncateFromOuter) {
        if (p.has('truncate')) {
          notes.push({ code: 'truncate-not-read', field: name('truncate'), message: 'HF reads truncate from the outer rope_parameters, so a per-layer-type truncate is never used (truncate stays true)' });
        }
      } else {
        const truncate = p.bool('truncate', true);
        if (!truncate) scaling.truncate = false;
      }
      out.factor = factor;
      out.scaling = scaling;
      out.trained = L;
      out.extended = factor * L;
      // transformers 4.4x–4.55 (e.g. cyyever/transformers@89539b06) replaced the factor with
      // max_position_embeddings / original whenever the dict named an original length.
      const named = p.has('original_max_position_embeddings');
      if (named && ctx.maxPositions !== undefined && stated !== null) {
        const old = ctx.maxPositions / L;
        if (old !== factor && old >= 1 && old <= 1e6) {
          out.alternative = { code: 'yarn-factor-override', field: name('factor'), factor: old, scaling: { ...scaling, factor: old }, message: `transformers 4.4x–4.55 replaced factor ${factor} with max_position_embeddings / original_max_position_embeddings = ${old} (transformers#38224, fixed by #40320)` };
        }
      }
      break;
    }
    case 'longrope': {
      const L = original();
      const pairs = rotaryDim / 2;
      const factors = (key) => {
        const list = p.list(key, 8192);
        if (list === undefined) throw new TypeError(`${name(key)} is missing: longrope needs ${pairs} per-pair factors`);
        if (list.length !== pairs) throw new RangeError(`${name(key)} must have ${pairs} items (one per pair of the ${rotaryDim}-wide rotary part), got ${list.length}`);
        return numberList(list, name(key), POSITIVE);
      };
      const shortFactor = factors('short_factor');
      const longFactor = factors('long_factor');
      const maxPositions = ctx.maxPositions ?? L;
      const stated = p.has('factor') ? p.number('factor', FACTOR) : null;
      const factor = stated ?? maxPositions / L;
      const scaling = { type: 'longrope', originalMaxPositions: L, maxPositions, shortFactor, longFactor };
      if (ctx.seqLen !== undefined) scaling.seqLen = ctx.seqLen;
      if (p.has('attention_factor')) {
        scaling.attentionFactor = p.number('attention_factor', POSITIVE);
      } else if (stated !== null) {
        // The core derives the factor from maxPositions / original; a stated factor wins in HF.
        scaling.attentionFactor = factor <= 1 ? 1 : Math.sqrt(1 + Math.log(factor) / Math.log(L));
      }
      out.factor = factor;
      out.scaling = scaling;
      out.trained = L;
      out.extended = factor * L;
      break;
    }
    case 'llama3': {
      const L = original();
      const need = (key) => {
        if (!p.has(key)) throw new TypeError(`${name(key)} is missing: llama3 requires factor, low_freq_factor, high_freq_factor and original_max_position_embeddings`);
        return p.number(key, key === 'factor' ? FACTOR : POSITIVE);
      };
      const factor = need('factor');
      const lowFreqFactor = need('low_freq_factor');
      const highFreqFactor = need('high_freq_factor');
      out.factor = factor;
      out.trained = L;
      out.extended = factor * L;
      if (highFreqFactor > lowFreqFactor) {
        out.scaling = { type: 'llama3', factor, originalMaxPositions: L, lowFreqFactor, highFreqFactor };
      } else {
        // No band between the two wavelengths (Llama 4 Scout: both 1). HF computes the blend
        // anyway (0/0 when equal) and torch.where discards it, since no pair is in the band:
        // every pair is either kept or divided by factor. The core's llama3 refuses such bands,
        // so the result is put together from its default and linear frequencies, pair by pair.
        out.composed = { lowWavelength: L / lowFreqFactor, factor };
        out.scaling = { type: 'llama3-no-band', factor, originalMaxPositions: L, lowFreqFactor, highFreqFactor };
        notes.push({ code: 'llama3-no-band', field: name('high_freq_factor'), message: `high_freq_factor ${highFreqFactor} ≤ low_freq_factor ${lowFreqFactor}: no pair is blended; pairs slower than ${L / lowFreqFactor} tokens per turn are divided by ${factor}, the rest kept` });
      }
      break;
    }
    default:
      throw new Error(`unreachable rope type ${ropeType}`);
  }
  return out;
}

export { mscale };
