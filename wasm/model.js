// modelPositions(config): what each layer of a Hugging Face model does with positions, read from
// its parsed config.json the way transformers reads it, with the frequencies and attention
// factors computed by the core (ropeFrequencies, alibiSlopes). The API attaches it to the object
// loadPosenc() returns (wasm/posenc.js); wasm/posenc.d.ts gives the result's shape.
//
//   wasm/model/fields.js    reading a pasted object safely (kinds, ranges, what was not read)
//   wasm/model/rope.js      one rope_parameters dict → the core's options.scaling
//   wasm/model/families.js  each family's layer rule (sliding / chunked / NoPE layers)
//
// Every field read is checked before use; a config it cannot read is a TypeError or RangeError
// naming the field; every key it did not read is returned in `ignored`, never dropped silently.

import { CONFIG_LIMITS, Fields, checkNumber, isPlainObject } from './model/fields.js';
import { LAYER_RULES } from './model/families.js';
import { mscale, readRope } from './model/rope.js';
import { JS_API } from './schema.js';

// [FAMILIES] ---------------------------------------------------------------------------------
// model_type → how to read it. `reader`: rope | learned | alibi | t5. For RoPE decoders: `rule`
// (LAYER_RULES), `layout` of the pairs in HF's code, defaults HF's config class applies when a
// key is absent (each with the class it comes from), and family quirks.
const ROPE = (rule, extra = {}) => ({ reader: 'rope', rule, layout: 'half', ...extra });
// The tables are made on the first call, not when the module loads: a bundle that imports the
// package but never calls modelPositions (the explainer's first screen) then drops them.
let made = null;
function tables() {
  if (made) return made;
  const FAMILIES = new Map([
    // RotaryEmbeddingConfigMixin.default_theta = 10000 unless the class overrides it.
    ['llama', ROPE('plain', { cls: 'LlamaConfig' })],
    ['mistral', ROPE('everyLayer', { cls: 'MistralConfig', slidingWindow: 4096, maxPositions: 4096 * 32 })],
    ['mixtral', ROPE('everyLayer', { cls: 'MixtralConfig' })],
    ['phi3', ROPE('everyLayer', { cls: 'Phi3Config' })],
    ['qwen2', ROPE('qwen', { cls: 'Qwen2Config' })],
    ['qwen2_moe', ROPE('qwen', { cls: 'Qwen2MoeConfig' })],
    ['qwen3', ROPE('qwen', { cls: 'Qwen3Config' })],
    ['qwen3_moe', ROPE('qwen', { cls: 'Qwen3MoeConfig' })],
    ['qwen2_vl', ROPE('qwen', { cls: 'Qwen2VLConfig', mrope: true })],
    ['qwen2_5_vl', ROPE('qwen', { cls: 'Qwen2_5_VLConfig', mrope: true })],
    ['qwen2_vl_text', ROPE('qwen', { cls: 'Qwen2VLTextConfig', mrope: true })],
    ['qwen2_5_vl_text', ROPE('qwen', { cls: 'Qwen2_5_VLTextConfig', mrope: true })],
    // Gemma3TextConfig defaults (huggingface/transformers@d98ac17 configuration_gemma3.py).
    ['gemma3_text', ROPE('gemma3', { cls: 'Gemma3TextConfig', theta: 1e6, headDim: 256, maxPositions: 131072, localBase: 1e4 })],
    ['cohere2', ROPE('cohere2', { cls: 'Cohere2Config', layout: 'interleaved', headDimFromHidden: true })],
    // gpt-oss: pairs (i, i + d/2) (modeling_gpt_oss.py _apply_rotary_emb: torch.chunk(x, 2)), with
    // cos and sin already times the attention factor.
    ['gpt_oss', ROPE('gptOss', { cls: 'GptOssConfig', theta: 150000 })],
    ['smollm3', ROPE('smollm3', { cls: 'SmolLM3Config', theta: 2e6, maxPositions: 32768 })],
    ['llama4_text', ROPE('llama4', { cls: 'Llama4TextConfig', layout: 'interleaved', theta: 500000 })],
    ['deepseek_v3', ROPE('plain', { cls: 'DeepseekV3Config', mla: true, softmaxDivergence: true })],
    ['deepseek_v2', ROPE('plain', { cls: 'DeepseekV2Config', mla: true })],
    // GPTNeoXConfig: rotary_pct (default 0.25) and rotary_emb_base (default 10000) are the old
    // names of partial_rotary_factor and rope_theta (configuration_gpt_neox.py@008e574).
    ['gpt_neox', ROPE('plain', { cls: 'GPTNeoXConfig', neox: true })],
    // GPTJ: rotary_dim of each head (GPTJConfig default 64, its dataclass form in the code index),
    // base 10000 fixed in create_sinusoidal_positions, pairs (2i, 2i+1) (rotate_every_two); legacy
    // names n_embd, n_head, n_layer, n_positions.
    ['gptj', ROPE('plain', { cls: 'GPTJConfig', layout: 'interleaved', gptj: true })],
    ['gpt2', { reader: 'learned', cls: 'GPT2Config', gpt2: true }],
    ['bert', { reader: 'learned', cls: 'BertConfig' }],
    ['bloom', { reader: 'alibi', cls: 'BloomConfig' }],
    ['t5', { reader: 't5', cls: 'T5Config' }],
    ['mt5', { reader: 't5', cls: 'MT5Config' }],
  ]);
  // Multimodal wrappers whose text part sits in text_config with its own model_type.
  const WRAPPERS = new Map([['gemma3', 'gemma3_text'], ['llama4', 'llama4_text']]);

  const KNOWN_MODEL_TYPES = Object.freeze([...FAMILIES.keys(), ...WRAPPERS.keys()]);
  made = { FAMILIES, WRAPPERS, KNOWN_MODEL_TYPES };
  return made;
}

/** Every model_type modelPositions reads, its wrappers' included. */
export const knownModelTypes = () => tables().KNOWN_MODEL_TYPES;

// Keys whose names say they are about positions: an ignored one is flagged so a reader sees it.
const POSITIONAL = /rope|rotary|posit|window|nope|alibi|bucket|theta|chunk|scal|temperature|layer_types|mscale|ctx|seq_len|context|interleav/i;

// [ENTRY] -----------------------------------------------------------------------------------

/**
 * What each layer of the model a config describes does with positions, computed with `pe`, the
 * object loadPosenc() returned (its ropeFrequencies and alibiSlopes, which check what they get).
 */
export function modelPositions(pe, config, options) {
  if (typeof pe?.ropeFrequencies !== 'function' || typeof pe?.alibiSlopes !== 'function') {
    throw new TypeError('pe must be the object loadPosenc() returned');
  }
  const seqLen = readOptions(options);
  const run = new Run(pe, seqLen);
  return run.read(config);
}

function readOptions(options) {
  // The options modelPositions takes, as wasm/schema.js states them (seqLen only).
  const OPTIONS = JS_API.modelPositions.options;
  if (options === undefined || options === null) return undefined;
  if (!isPlainObject(options)) throw new TypeError(`options must be an object, got ${Array.isArray(options) ? 'an array' : typeof options}`);
  const allowed = Object.keys(OPTIONS);
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) throw new TypeError(`options.${key.slice(0, 40)} is not an option of modelPositions(); allowed: ${allowed.join(', ')}`);
  }
  const d = Object.getOwnPropertyDescriptor(options, 'seqLen');
  if (!d) return undefined;
  if (!('value' in d)) throw new TypeError('options.seqLen must be plain data, not a getter');
  if (d.value === undefined) return undefined;
  const { min, max } = OPTIONS.seqLen;
  return checkNumber(d.value, 'options.seqLen', { min, max, integer: true });
}

class Run {
  constructor(core, seqLen) {
    this.core = core;
    this.seqLen = seqLen;
    this.notes = [];
    this.defaults = [];
    this.divergences = [];
    this.extraIgnored = [];
    this.children = [];
  }

  /** Records a default HF's class applies to an absent key. */
  defaulted(fields, key, value, cls) {
    this.defaults.push({ field: fields.name(key), value, from: cls });
  }

  read(config) {
    const { FAMILIES, WRAPPERS, KNOWN_MODEL_TYPES } = tables();
    const root = new Fields(config, '');
    let modelType = root.string('model_type', undefined);
    let text = root;
    if (root.has('text_config')) {
      text = root.child('text_config');
      const inner = text.string('model_type', undefined);
      if (inner !== undefined) modelType = inner;
      else if (modelType !== undefined && WRAPPERS.has(modelType)) modelType = WRAPPERS.get(modelType);
    } else if (modelType !== undefined && WRAPPERS.has(modelType)) {
      modelType = WRAPPERS.get(modelType);
    }
    if (modelType === undefined) modelType = this.inferModelType(text);
    const family = FAMILIES.get(modelType);
    if (!family) {
      throw new TypeError(`model_type ${JSON.stringify(modelType.slice(0, 64))} is not one modelPositions reads; known: ${KNOWN_MODEL_TYPES.join(', ')}`);
    }

    const result = this[family.reader](text, family, modelType);

    const ignored = [...text.rest()];
    if (text !== root) ignored.push(...root.rest('other-part'));
    for (const child of this.children) ignored.push(...child.rest());
    ignored.push(...this.extraIgnored);
    for (const entry of ignored) entry.looksPositional = POSITIONAL.test(entry.field.split('.').pop());
    const read = [];
    for (const f of [root, ...(text === root ? [] : [text]), ...this.children]) for (const k of f.read) read.push(f.name(k));

    return {
      modelType,
      kind: result.kind,
      layers: result.layers,
      numLayers: result.layers.length,
      heads: result.heads,
      headDim: result.headDim,
      lengths: result.lengths,
      divergences: this.divergences,
      defaults: this.defaults,
      notes: this.notes,
      read: read.sort(),
      ignored,
    };
  }

  // A config without model_type: GPT-2's own file has none (openai-community/gpt2 at b57efa2).
  inferModelType(text) {
    const has = (k) => Object.hasOwn(text.object, k);
    if (has('n_embd') && has('n_head') && has('n_layer')) {
      const type = has('rotary_dim') ? 'gptj' : 'gpt2';
      this.notes.push({ code: 'model-type-inferred', field: text.name('model_type'), message: `model_type is absent; read as '${type}' from its n_embd/n_head/n_layer keys${type === 'gptj' ? ' and rotary_dim' : ''}` });
      return type;
    }
    throw new TypeError(`${text.name('model_type')} is missing: modelPositions needs it to know the model's family (known: ${knownModelTypes().join(', ')})`);
  }

  // [ROPE DECODERS] -------------------------------------------------------------------------
  rope(text, fam, modelType) {
    const d = (key, value) => this.defaulted(text, key, value, fam.cls);
    const alias = (names) => names.find((k) => Object.hasOwn(text.object, k)) ?? names[0];
    const layersKey = fam.gptj ? alias(['n_layer', 'num_hidden_layers']) : 'num_hidden_layers';
    const headsKey = fam.gptj ? alias(['n_head', 'num_attention_heads']) : 'num_attention_heads';
    const hiddenKey = fam.gptj ? alias(['n_embd', 'hidden_size']) : 'hidden_size';
    const layers = text.int(layersKey, 1, CONFIG_LIMITS.layers);
    const heads = text.int(headsKey, 1, 4096);

    // The width of q·k per head, and of its rotated part.
    let headDim;
    let rotaryDim;
    if (fam.mla) {
      // DeepseekV3Config: head_dim = qk_rope_head_dim for the rotary, q·k over nope + rope.
      rotaryDim = text.int('qk_rope_head_dim', 2, 8192);
      headDim = rotaryDim + text.int('qk_nope_head_dim', 0, 8192);
    } else if (!fam.headDimFromHidden && !fam.gptj && text.has('head_dim')) {
      // (Cohere2Config sets head_dim = hidden_size // num_attention_heads whatever the file says,
      // so there a head_dim key stays unread and is listed as ignored.)
      headDim = text.int('head_dim', 2, 8192);
    } else if (fam.headDim !== undefined && !Object.hasOwn(text.object, 'head_dim')) {
      headDim = fam.headDim;
      d('head_dim', headDim);
    } else {
      const hidden = text.int(hiddenKey, 1, 2 ** 20);
      headDim = Math.floor(hidden / heads);  // hidden_size // num_attention_heads
      if (headDim < 2) throw new RangeError(`${text.name(hiddenKey)} // ${text.name(headsKey)} = ${headDim} is no head width`);
    }
    if (fam.gptj) {
      // GPTJConfig's default rotary_dim is 64.
      rotaryDim = text.has('rotary_dim') ? text.int('rotary_dim', 2, headDim) : (Object.hasOwn(text.object, 'rotary_dim') ? headDim : (d('rotary_dim', 64), 64));
    }

    let theta;
    if (fam.gptj) {
      theta = 10000;
    } else if (text.has('rope_theta')) {
      theta = text.number('rope_theta', { min: 1, max: 1e12, exclusiveMin: true });
    } else if (fam.neox && text.has('rotary_emb_base')) {
      theta = text.number('rotary_emb_base', { min: 1, max: 1e12, exclusiveMin: true });
    } else {
      theta = fam.theta ?? 10000;
      d(fam.neox ? 'rotary_emb_base' : 'rope_theta', theta);
    }
    let partialRotaryFactor;
    if (text.has('partial_rotary_factor')) {
      partialRotaryFactor = text.number('partial_rotary_factor', { min: 0, max: 1, exclusiveMin: true });
    } else if (fam.neox) {
      partialRotaryFactor = text.has('rotary_pct') ? text.number('rotary_pct', { min: 0, max: 1, exclusiveMin: true }) : (d('rotary_pct', 0.25), 0.25);
    }

    const maxKey = fam.gptj ? alias(['n_positions', 'max_position_embeddings']) : 'max_position_embeddings';
    let maxPositions;
    if (text.has(maxKey)) maxPositions = text.int(maxKey, 1, CONFIG_LIMITS.position);
    else if (fam.maxPositions !== undefined) maxPositions = (d(maxKey, fam.maxPositions), fam.maxPositions);
    const topOriginal = text.has('original_max_position_embeddings') ? text.int('original_max_position_embeddings', 1, CONFIG_LIMITS.position) : undefined;

    const rule = LAYER_RULES[fam.rule](text, layers, d, fam);
    if (rule.notes) this.notes.push(...rule.notes);

    // HF: rope_parameters = rope_scaling or rope_parameters (convert_rope_params_to_dict): a
    // non-empty rope_scaling wins and rope_parameters is never read.
    let dict = null;
    const scaling = text.has('rope_scaling') ? text.get('rope_scaling') : null;
    const params = text.has('rope_parameters') ? text.get('rope_parameters') : null;
    if (isPlainObject(scaling) && Object.keys(scaling).length > 0) {
      dict = text.child('rope_scaling');
      if (params !== null) this.extraIgnored.push({ field: text.name('rope_parameters'), reason: 'superseded' });
    } else if (params !== null) {
      dict = text.child('rope_parameters');
    } else if (scaling !== null) {
      dict = text.child('rope_scaling');  // {} or a wrong kind: the child() check names it
    }
    if (dict) this.children.push(dict);

    // Per-layer-type dicts when the dict's keys are all layer types of this config.
    const present = new Set(rule.types);
    const perType = dict !== null && dict.keys.length > 0 && dict.keys.every((k) => present.has(k));
    // DeepSeek: rope_interleave (default true) permutes q and k so rotate_half acts on (2i, 2i+1).
    const layout = fam.mla ? (text.bool('rope_interleave', true) ? 'interleaved' : 'half') : fam.layout;
    const ctx = {
      theta, maxPositions, topOriginal, headDim, rotaryDim, partialRotaryFactor, seqLen: this.seqLen,
      allowMrope: Boolean(fam.mrope), modelType, truncateFromOuter: perType, layout,
    };

    const settings = new Map();  // layer type → setting (or 'all')
    const settingFor = (type) => {
      const key = perType || fam.localBase ? type : 'all';
      if (!settings.has(key)) settings.set(key, this.ropeSetting(text, dict, perType, type, fam, ctx, d));
      return settings.get(key);
    };

    const out = [];
    for (let i = 0; i < layers; i++) {
      const rotates = rule.rope[i];
      const setting = rotates ? settingFor(rule.types[i]) : null;
      const layer = {
        index: i,
        kind: !rotates ? 'none' : setting.public.rotaryDim < headDim ? 'partial-rope' : 'rope',
        attention: rule.types[i] === 'sliding_attention' ? 'sliding' : rule.types[i] === 'chunked_attention' ? 'chunked' : 'full',
        window: rule.windows[i],
        headDim,
        rope: setting ? setting.public : null,
        temperature: rule.temperature?.[i] ?? null,
      };
      out.push(layer);
    }
    if (!out.some((l) => l.rope)) {
      // A config where no layer rotates still has its rope fields read (they state the family).
      for (const t of present) settingFor(t);
    }

    // Lengths from a full-attention RoPE layer when there is one (Gemma 3's global layers).
    const lead = out.find((l) => l.rope && l.attention === 'full') ?? out.find((l) => l.rope);
    const leadSetting = lead ? [...settings.values()].find((s) => s.public === lead.rope) : settings.values().next().value;
    const lengths = {
      trained: leadSetting?.trained ?? null,
      declared: maxPositions ?? null,
      extended: leadSetting ? leadSetting.extended : maxPositions ?? null,
    };
    if (lengths.extended !== null && lengths.declared !== null && lengths.extended !== lengths.declared && leadSetting?.public.scaling) {
      this.notes.push({ code: 'extended-differs', field: text.name('max_position_embeddings'), message: `the scaling extends ${lengths.trained} positions to ${lengths.extended}, while max_position_embeddings says ${lengths.declared}` });
    }

    if (fam.softmaxDivergence && leadSetting) this.mlaSoftmax(dict, leadSetting, headDim, maxPositions);

    return { kind: 'rope', layers: out, heads, headDim, lengths };
  }

  /** One RoPE setting: the config read (readRope), then the core's numbers. */
  ropeSetting(text, dict, perType, type, fam, ctx, d) {
    let p = dict;
    let theta = ctx.theta;
    if (perType) {
      p = dict.child(type);
      if (!p) throw new TypeError(`${dict.name(type)} is missing: layers of type '${type}' need their rope parameters`);
      this.children.push(p);
    } else if (fam.localBase && type === 'sliding_attention') {
      // Gemma 3's local layers: a copy of the config with rope_theta = rope_local_base_freq and
      // default RoPE (modeling_gemma3.py; rope_parameters['sliding_attention'] in transformers 5).
      theta = text.has('rope_local_base_freq') ? text.number('rope_local_base_freq', { min: 1, max: 1e12, exclusiveMin: true }) : (d('rope_local_base_freq', fam.localBase), fam.localBase);
      p = null;
    }
    const r = readRope(p, { ...ctx, theta });
    for (const n of r.notes) this.notes.push({ ...n, layerType: type });
    const numbers = this.frequencies(r, r.scaling);
    const pub = {
      ropeType: r.ropeType,
      rotaryDim: r.rotaryDim,
      base: r.base,
      factor: r.factor,
      scaling: r.scaling,
      invFreq: numbers.invFreq,
      attentionFactor: numbers.attentionFactor,
      mropeSection: r.mropeSection,
      layout: ctx.layout,
    };
    if (r.alternative) {
      const alt = this.frequencies(r, r.alternative.scaling);
      this.divergences.push({
        code: r.alternative.code, field: r.alternative.field, layerType: type, message: r.alternative.message,
        current: { factor: r.factor, attentionFactor: numbers.attentionFactor, invFreq: numbers.invFreq },
        older: { factor: r.alternative.factor, attentionFactor: alt.attentionFactor, invFreq: alt.invFreq },
        modelUses: 'current',
      });
    }
    return { public: pub, trained: r.trained, extended: r.extended, factor: r.factor, ropeType: r.ropeType };
  }

  /** invFreq and attentionFactor from the core; llama3 without a band from its default and linear. */
  frequencies(r, scaling) {
    if (scaling?.type === 'llama3-no-band') {
      const plain = this.core.ropeFrequencies(r.rotaryDim, { base: r.base });
      const divided = this.core.ropeFrequencies(r.rotaryDim, { base: r.base, scaling: { type: 'linear', factor: scaling.factor } });
      const low = scaling.originalMaxPositions / scaling.lowFreqFactor;
      const invFreq = plain.invFreq.map((f, i) => {
        const wavelength = (2 * Math.PI) / f;
        if (wavelength === low) throw new RangeError(`pair ${i} turns exactly once in original_max_position_embeddings / low_freq_factor = ${low} tokens, where HF's llama3 blend divides 0 by 0`);
        return wavelength > low ? divided.invFreq[i] : f;
      });
      return { invFreq, attentionFactor: 1 };
    }
    return this.core.ropeFrequencies(r.rotaryDim, { base: r.base, scaling: scaling ?? undefined });
  }

  // DeepSeek-V3's softmax scale. HF (modular_deepseek_v3.py@000c33f): qk_head_dim^-0.5, times
  // mscale(factor, mscale_all_dim)² when rope_type is not default and mscale_all_dim is set; the
  // rotary's cos and sin also carry mscale(f, mscale)/mscale(f, mscale_all_dim), so q·k's rotated
  // part is scaled by its square. DeepSeek's own inference/model.py (DeepSeek-V3@9b4e978
  // L434-437) scales the whole softmax by (0.1·mscale·ln(rope_factor) + 1)² when its max_seq_len
  // passes original_seq_len, and leaves cos and sin alone. The model was trained with DeepSeek's
  // code; with mscale = mscale_all_dim (V3 ships 1.0 and 1.0) the two agree.
  mlaSoftmax(dict, setting, qkHeadDim, maxPositions) {
    if (!dict || setting.ropeType === 'default') return;
    const s = setting.public;
    const f = setting.factor;
    const msAll = s.scaling?.mscaleAllDim ?? 0;
    const ms = s.scaling?.mscale ?? 1;  // DeepSeek's ModelArgs.mscale defaults to 1.0
    const base = qkHeadDim ** -0.5;
    const hf = base * (msAll ? mscale(f, msAll) ** 2 : 1);
    const applies = setting.ropeType === 'yarn' && maxPositions !== undefined && maxPositions > setting.trained;
    const original = applies ? base * (0.1 * ms * Math.log(f) + 1) ** 2 : base;
    const af = s.attentionFactor;
    this.divergences.push({
      code: 'mla-softmax-scale',
      field: dict.name('mscale_all_dim'),
      message: 'DeepSeek\'s own code scales the whole softmax by mscale(factor, mscale)²; HF scales it by mscale(factor, mscale_all_dim)² and the rotated part again through cos and sin',
      hf: { softmaxScale: hf, ropeAttentionFactor: af, rotatedScale: hf * af * af, otherScale: hf },
      original: { softmaxScale: original, ropeAttentionFactor: 1, rotatedScale: original, otherScale: original },
      modelUses: 'original',
      agree: Math.abs(hf * af * af - original) <= 1e-12 * original && Math.abs(hf - original) <= 1e-12 * original,
    });
  }

  // [LEARNED, ALIBI, T5] --------------------------------------------------------------------
  // GPT-2 (GPT2Config's docstring: n_positions defaults to 1024; its attribute_map lets
  // max_position_embeddings, hidden_size, num_attention_heads, num_hidden_layers stand for the n_*
  // keys) and BERT (BertConfig's docstring: max_position_embeddings 512, position_embedding_type
  // 'absolute'; 'relative_key' and 'relative_key_query' are Shaw-style and not read here): one
  // table added to the token embeddings before the first layer; no layer has a mechanism of its own.
  learned(text, fam) {
    const d = (key, value) => this.defaulted(text, key, value, fam.cls);
    const alias = (names) => names.find((k) => Object.hasOwn(text.object, k)) ?? names[0];
    const layersKey = fam.gpt2 ? alias(['n_layer', 'num_hidden_layers']) : 'num_hidden_layers';
    const headsKey = fam.gpt2 ? alias(['n_head', 'num_attention_heads']) : 'num_attention_heads';
    const hiddenKey = fam.gpt2 ? alias(['n_embd', 'hidden_size']) : 'hidden_size';
    const rowsKey = fam.gpt2 ? alias(['n_positions', 'max_position_embeddings']) : 'max_position_embeddings';
    const layers = text.int(layersKey, 1, CONFIG_LIMITS.layers);
    const heads = text.int(headsKey, 1, 4096);
    const headDim = Math.floor(text.int(hiddenKey, 1, 2 ** 20) / heads);
    const fallbackRows = fam.gpt2 ? 1024 : 512;
    const rows = text.has(rowsKey) ? text.int(rowsKey, 1, CONFIG_LIMITS.position) : (d(rowsKey, fallbackRows), fallbackRows);
    if (!fam.gpt2) {
      const type = text.has('position_embedding_type') ? text.get('position_embedding_type') : (d('position_embedding_type', 'absolute'), 'absolute');
      if (type !== 'absolute') {
        throw new TypeError(`${text.name('position_embedding_type')} ${JSON.stringify(String(type).slice(0, 40))} is not read by modelPositions; it reads 'absolute' (a learned table)`);
      }
    }
    const layer = (i) => ({ index: i, kind: 'learned', attention: 'full', window: null, headDim, rope: null, temperature: null, learned: { rows } });
    return {
      kind: 'learned', heads, headDim,
      layers: Array.from({ length: layers }, (_, i) => layer(i)),
      lengths: { trained: rows, declared: rows, extended: rows },
    };
  }

  // BLOOM (BloomConfig; build_alibi_tensor's slopes are the reference code's get_slopes, which
  // the core's alibiSlopes computes): every layer adds −slope·distance, per head.
  alibi(text, fam) {
    const alias = (names) => names.find((k) => Object.hasOwn(text.object, k)) ?? names[0];
    const layers = text.int(alias(['n_layer', 'num_hidden_layers']), 1, CONFIG_LIMITS.layers);
    const headsKey = alias(['n_head', 'num_attention_heads']);
    const heads = text.int(headsKey, 1, 4096);
    const hiddenKey = alias(['hidden_size', 'n_embed']);
    const headDim = Math.floor(text.int(hiddenKey, 1, 2 ** 20) / heads);
    const slopes = this.core.alibiSlopes(heads);
    // seq_length is in BLOOM's files but read by no HF code; it is the training length.
    const trained = text.has('seq_length') ? text.int('seq_length', 1, CONFIG_LIMITS.position) : null;
    if (trained !== null) this.notes.push({ code: 'not-read-by-hf', field: text.name('seq_length'), message: 'seq_length is not read by HF\'s BLOOM code: ALiBi has no table and no length limit' });
    const alibi = { heads, slopes };
    return {
      kind: 'alibi', heads, headDim,
      layers: Array.from({ length: layers }, (_, i) => ({ index: i, kind: 'alibi', attention: 'full', window: null, headDim, rope: null, temperature: null, alibi })),
      lengths: { trained, declared: null, extended: null },
    };
  }

  // T5 (modeling_t5.py): a learned bias per head and bucket, made in the first layer of each stack
  // (has_relative_attention_bias = layer 0) and reused by the others; the encoder's buckets are
  // bidirectional, the decoder's self-attention ones causal. Cross-attention has no positions.
  t5(text, fam) {
    const d = (key, value) => this.defaulted(text, key, value, fam.cls);
    const encoderLayers = text.int('num_layers', 1, CONFIG_LIMITS.layers);
    const decoderLayers = text.has('num_decoder_layers') ? text.int('num_decoder_layers', 1, CONFIG_LIMITS.layers) : (d('num_decoder_layers', encoderLayers), encoderLayers);
    const heads = text.int('num_heads', 1, 4096);
    const headDim = text.int('d_kv', 1, 8192);
    const numBuckets = text.has('relative_attention_num_buckets') ? text.int('relative_attention_num_buckets', 4, 4096) : (d('relative_attention_num_buckets', 32), 32);
    const maxDistance = text.has('relative_attention_max_distance') ? text.int('relative_attention_max_distance', 1, 2 ** 24) : (d('relative_attention_max_distance', 128), 128);
    if (numBuckets % 2 !== 0) throw new RangeError(`${text.name('relative_attention_num_buckets')} must be even (the encoder splits it in two), got ${numBuckets}`);
    const trained = text.has('n_positions') ? text.int('n_positions', 1, CONFIG_LIMITS.position) : null;
    if (trained !== null) this.notes.push({ code: 'not-read-by-hf', field: text.name('n_positions'), message: 'n_positions is not read by HF\'s T5 code: the buckets have no length limit' });
    const layers = [];
    const add = (stack, count, bidirectional) => {
      for (let i = 0; i < count; i++) {
        layers.push({ index: layers.length, stack, kind: 't5', attention: 'full', window: null, headDim, rope: null, temperature: null, t5: { numBuckets, maxDistance, bidirectional, ownTable: i === 0 } });
      }
    };
    add('encoder', encoderLayers, true);
    add('decoder', decoderLayers, false);
    return { kind: 't5', heads, headDim, layers, lengths: { trained, declared: null, extended: null } };
  }
}
