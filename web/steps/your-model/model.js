// Step "your-model", the numbers: a real model's config (an atlas entry or a pasted config.json)
// read by modelPositions (wasm/model.js, as Hugging Face reads it), then what the page shows of
// it: each RoPE setting's pairs (plain and scaled wavelengths, the scaling per pair, how many
// turns each makes within the training length and the context), the layers grouped by what they
// do with positions, and the lengths. DOM-free: tests/js/your-model.test.js runs it in Node.
import { modelPositions } from '../../../wasm/model.js';

/** Pasted text longer than this is refused before it is parsed (a real config.json is ~1–40 kB). */
export const MAX_PASTE = 200_000;
/** The value of the model choice that stands for the pasted config. */
export const PASTED = 'pasted';
/** How the pasted config is kept in the address: #config=<URI-encoded compact JSON>. */
export const HASH_KEY = 'config=';

/**
 * The atlas (web/data/atlas.json) as one list, each model followed by its variants:
 * { id, name, status, config, sources, notes, parent } (a variant's id is `<model>-<variant>`,
 * parent its model's id; a model's parent is null).
 */
export function atlasEntries(atlas) {
  const entries = atlas.models.flatMap((mo) => [
    { id: mo.id, name: mo.name, status: mo.status, config: mo.config, sources: mo.sources ?? {}, notes: mo.notes ?? '', parent: null },
    ...(mo.variants ?? []).map((v) => ({
      id: `${mo.id}-${v.id}`, name: v.name, status: v.status, config: v.config, sources: v.sources ?? {}, notes: v.notes ?? '', parent: mo.id,
    })),
  ]);
  const ids = new Set(entries.map((e) => e.id));
  if (ids.size !== entries.length || ids.has(PASTED)) throw new Error('atlas ids must be unique and not "pasted"');
  return entries;
}

/**
 * Pasted text → { config } or { error: { kind, message? , length? } }: kind 'empty', 'size'
 * (longer than MAX_PASTE) or 'json' (JSON.parse's own message).
 */
export function parsePasted(text) {
  if (typeof text !== 'string' || text.trim() === '') return { error: { kind: 'empty' } };
  if (text.length > MAX_PASTE) return { error: { kind: 'size', length: text.length } };
  try {
    return { config: JSON.parse(text) };
  } catch (e) {
    return { error: { kind: 'json', message: String(e?.message ?? e) } };
  }
}

/** The pasted config's text from a location.hash ('' when it holds none). */
export function pastedFromHash(hash) {
  const raw = String(hash ?? '').replace(/^#/, '');
  if (!raw.startsWith(HASH_KEY)) return '';
  try {
    return decodeURIComponent(raw.slice(HASH_KEY.length));
  } catch {
    return raw.slice(HASH_KEY.length);  // a malformed escape: shown as it is, and refused as JSON
  }
}

/** The hash that keeps a parsed config: compact JSON, URI-encoded. */
export const hashFor = (config) => `#${HASH_KEY}${encodeURIComponent(JSON.stringify(config))}`;

/**
 * Reads a config with the core `pe`: { summary } or { error: { kind: 'config', name, message } }
 * with the API's TypeError/RangeError (any other error too: nothing the reader pastes may break
 * the page).
 */
export function readConfig(pe, config, seqLen = 0) {
  let positions;
  try {
    positions = modelPositions(pe, config, seqLen > 0 ? { seqLen } : undefined);
  } catch (e) {
    return { error: { kind: 'config', name: e?.name ?? 'Error', message: String(e?.message ?? e) } };
  }
  return { summary: summarize(pe, positions, seqLen) };
}

/** The longest reading length the step offers (2^24 tokens, past every context in the atlas). */
export const MAX_READ = 2 ** 24;

/**
 * The reading lengths the step offers when the lead setting's scaling depends on the length of
 * the text (Hugging Face's dynamic and longrope recompute the frequencies from the longest
 * position seen): [{ seqLen, kind }] in order, seqLen 0 standing for the state HF loads the model
 * in; null for every other model. longrope: its short factors (up to originalMaxPositions, the
 * state at load) or its long ones (past it, up to the context); dynamic: the base as loaded (up to
 * maxPositions), then as it has grown at 2, 4 and 8 times that length.
 */
export function lengthChoices(summary) {
  const sc = summary.settings[summary.lead]?.rope.scaling;
  if (sc?.type === 'longrope') {
    return [{ seqLen: 0, kind: 'short', n: sc.originalMaxPositions }, { seqLen: sc.maxPositions, kind: 'long', n: sc.maxPositions }];
  }
  if (sc?.type === 'dynamic') {
    return [{ seqLen: 0, kind: 'loaded', n: sc.maxPositions },
      ...[2, 4, 8].map((k) => ({ seqLen: k * sc.maxPositions, kind: 'grown', n: k * sc.maxPositions })).filter((c) => c.seqLen <= MAX_READ)];
  }
  return null;
}

/** The number of turns a pair of wavelength λ makes in n tokens: n/λ = n·θ/2π. */
export const turns = (n, wavelength) => n / wavelength;

/**
 * What the page shows of modelPositions' result `pos`:
 *   kind, modelType, heads, headDim, numLayers, positions (the result itself)
 *   trained  the length before extension (null when the config cannot say)
 *   context  the length the config declares (max_position_embeddings), else the extended one;
 *            a reading length seqLen past it (dynamic scaling read further) takes its place
 *   settings every distinct RoPE setting, in the order of the first layer using it:
 *            { rope, layers, pairs, plain, scaled (inverse frequencies), plainWavelengths,
 *              wavelengths, ratio (θ′/θ per pair), turnedInTraining (pairs whose plain wavelength
 *              is at most trained), turnInContext (scaled wavelength at most context), never
 *              (the others), slowestTrained (turns of the slowest plain pair in trained tokens),
 *              slowestContext (of the slowest scaled pair in context tokens), scaledPairs (pairs
 *              whose frequency the scaling changed) }
 *   lead     the index of the setting of the full-attention layers (Gemma 3's global ones),
 *            else of the first RoPE layer; -1 when no layer rotates
 *   groups   layers with the same kind, attention, window and setting, in order of first use:
 *            { kind, attention, window, setting, base, count, layers }
 *   layerGroup  per layer, the index of its group
 */
export function summarize(pe, pos, seqLen = 0) {
  const { lengths } = pos;
  const trained = lengths.trained ?? null;
  const declared = lengths.declared ?? lengths.extended ?? null;
  const context = declared !== null && seqLen > declared ? seqLen : declared;
  const settings = [];
  const settingOf = new Map();
  for (const layer of pos.layers) {
    if (!layer.rope || settingOf.has(layer.rope)) continue;
    settingOf.set(layer.rope, settings.length);
    settings.push(setting(pe, layer.rope, trained, context));
  }
  for (const layer of pos.layers) if (layer.rope) settings[settingOf.get(layer.rope)].layers.push(layer.index);
  const leadLayer = pos.layers.find((l) => l.rope && l.attention === 'full') ?? pos.layers.find((l) => l.rope);
  const lead = leadLayer ? settingOf.get(leadLayer.rope) : -1;

  const groups = [];
  const groupOf = new Map();
  const layerGroup = pos.layers.map((l) => {
    const s = l.rope ? settingOf.get(l.rope) : -1;
    const key = `${l.kind}|${l.attention}|${l.window}|${s}|${l.stack ?? ''}|${l.temperature ? 't' : ''}|${l.t5?.ownTable ?? ''}`;
    if (!groupOf.has(key)) {
      groupOf.set(key, groups.length);
      groups.push({
        kind: l.kind, attention: l.attention, window: l.window, setting: s, base: l.rope?.base ?? null,
        stack: l.stack ?? null, temperature: l.temperature, count: 0, layers: [],
      });
    }
    const g = groups[groupOf.get(key)];
    g.count++;
    g.layers.push(l.index);
    return groupOf.get(key);
  });

  return {
    kind: pos.kind, modelType: pos.modelType, heads: pos.heads, headDim: pos.headDim, numLayers: pos.numLayers,
    trained, context, positions: pos, settings, lead, groups, layerGroup,
  };
}

function setting(pe, rope, trained, context) {
  const scaled = rope.invFreq;
  const plain = rope.scaling ? pe.ropeFrequencies(rope.rotaryDim, { base: rope.base }).invFreq : scaled;
  const pairs = scaled.length;
  const wavelengths = Float64Array.from(scaled, (f) => (2 * Math.PI) / f);
  const plainWavelengths = Float64Array.from(plain, (f) => (2 * Math.PI) / f);
  const ratio = Float64Array.from(scaled, (f, i) => f / plain[i]);
  const count = (list, test) => list.reduce((n, v) => n + (test(v) ? 1 : 0), 0);
  const turnInContext = context === null ? null : count(wavelengths, (w) => w <= context);
  return {
    rope, layers: [], pairs, plain, scaled, plainWavelengths, wavelengths, ratio,
    turnedInTraining: trained === null ? null : count(plainWavelengths, (w) => w <= trained),
    turnInContext,
    never: turnInContext === null ? null : pairs - turnInContext,
    slowestTrained: trained === null ? null : turns(trained, Math.max(...plainWavelengths)),
    slowestContext: context === null ? null : turns(context, Math.max(...wavelengths)),
    scaledPairs: count(ratio, (r) => r !== 1),
  };
}

/**
 * The Lab's state for a model (web/steps/index.js's lab link): its family, and for RoPE the lead
 * setting's width, base, scaling and layout under the Lab's names (the Lab clamps what it must).
 */
export function labState(summary) {
  if (!summary) return { family: 'rope' };
  if (summary.kind !== 'rope') return { family: summary.kind === 't5' ? 't5' : summary.kind };
  const s = summary.settings[summary.lead];
  if (!s) return { family: 'none' };
  const { rope } = s;
  const sc = rope.scaling;
  const type = sc?.type === 'llama3-no-band' ? 'llama3' : sc?.type;
  return {
    family: 'rope', d: rope.rotaryDim, base: rope.base, layout: rope.layout,
    scaling: type ?? 'default', factor: sc?.factor, orig: sc?.originalMaxPositions ?? sc?.maxPositions,
    betaFast: sc?.betaFast, betaSlow: sc?.betaSlow, lowFreq: sc?.lowFreqFactor, highFreq: sc?.highFreqFactor,
  };
}

/** Distances at which the score is drawn: SCORE_SAMPLES + 1, evenly from 0 to the context. */
export const SCORE_SAMPLES = 128;

/**
 * The score q·k of a query and a key that are all ones over a whole head, against their distance
 * Δ, for the lead setting: each rotated pair gives a²·2·cos(Δ·θ′ᵢ) (HF multiplies cos and sin by
 * the attention factor a), each dimension left unrotated (partial RoPE, MLA's other part) 1.
 * { distances, scores } at SCORE_SAMPLES + 1 distances from 0 to the context (else the training
 * length); null for a model without rotation or without a length.
 */
export function allOnesScores(summary) {
  const s = summary.settings[summary.lead];
  const end = summary.context ?? summary.trained;
  if (!s || !end) return null;
  const a2 = s.rope.attentionFactor ** 2;
  const rest = summary.headDim - s.rope.rotaryDim;
  const distances = Float64Array.from({ length: SCORE_SAMPLES + 1 }, (_, k) => (k * end) / SCORE_SAMPLES);
  const scores = Float64Array.from(distances, (d) => {
    let sum = 0;
    for (const f of s.scaled) sum += Math.cos(d * f);
    return 2 * a2 * sum + rest;
  });
  return { distances, scores };
}
