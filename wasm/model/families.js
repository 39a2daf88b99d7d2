// Which layers of a model use which positions: each model family's own rule, as its Hugging Face
// configuration class writes it (the file and commit read are named at each rule). A rule gets the
// text part of the config (Fields) and the layer count, and returns per layer: the attention type
// ('full_attention' | 'sliding_attention' | 'chunked_attention'), whether it rotates (RoPE or
// NoPE), and its window.

import { CONFIG_LIMITS } from './fields.js';

export const LAYER_TYPES = ['full_attention', 'sliding_attention', 'chunked_attention'];
const LENGTH = [1, CONFIG_LIMITS.position];

/** An explicit layer_types list (any family that states one): each entry checked, length = layers. */
function statedLayerTypes(text, layers) {
  const list = text.list('layer_types', CONFIG_LIMITS.layers);
  if (list === undefined) return undefined;
  if (list.length !== layers) throw new RangeError(`${text.name('layer_types')} has ${list.length} entries; num_hidden_layers is ${layers}`);
  list.forEach((t, i) => {
    if (typeof t !== 'string' || !LAYER_TYPES.includes(t)) {
      throw new TypeError(`${text.name('layer_types')}[${i}] must be one of ${LAYER_TYPES.map((x) => `'${x}'`).join(', ')}, got ${typeof t === 'string' ? JSON.stringify(t.slice(0, 40)) : String(t)}`);
    }
  });
  return list;
}

/** sliding_window (or another window key) as an integer, null when absent or null. */
const window = (text, key = 'sliding_window') => (text.has(key) ? text.int(key, ...LENGTH) : null);

/** no_rope_layers, checked: 1 (or true) = the layer rotates, 0 = NoPE. At least `layers` long. */
function ropeFlags(text, layers) {
  const list = text.list('no_rope_layers', CONFIG_LIMITS.layers);
  if (list === undefined) return undefined;
  if (list.length === 0) return [];
  if (list.length < layers) throw new RangeError(`${text.name('no_rope_layers')} has ${list.length} entries; num_hidden_layers is ${layers}`);
  return list.slice(0, layers).map((v, i) => {
    if (v === 0 || v === 1 || typeof v === 'boolean') return Boolean(v);
    throw new TypeError(`${text.name('no_rope_layers')}[${i}] must be 0 or 1 (1: the layer uses RoPE), got ${typeof v === 'string' ? JSON.stringify(v.slice(0, 40)) : String(v)}`);
  });
}

const everyNth = (layers, n) => Array.from({ length: layers }, (_, i) => (i + 1) % n !== 0);

/**
 * The rules. Each returns { types: string[], rope: boolean[], windows: (number|null)[],
 * temperature?: object|null } for `layers` layers; `d` collects defaults it applied.
 */
export const LAYER_RULES = {
  // LlamaConfig and the like: every layer full, every layer RoPE. A sliding_window key is not
  // read by these classes and is left in the ignored list.
  plain(text, layers) {
    const types = statedLayerTypes(text, layers) ?? new Array(layers).fill('full_attention');
    return withWindows(text, types);
  },

  // Mistral, Mixtral, Phi-3: sliding_window, when set, applies to every layer (MistralAttention
  // passes sliding_window=getattr(config, "sliding_window", None) to every layer). MistralConfig
  // (the dataclass form in the code index, checkpoint mistralai/Mistral-7B-v0.1) defaults it to
  // 4096 and does not read layer_types (it warns and points to the Ministral classes), so a stated
  // layer_types stays unread and is listed as ignored.
  everyLayer(text, layers, d, fam) {
    let w;
    if (Object.hasOwn(text.object, 'sliding_window') || fam.slidingWindow === undefined) w = window(text);
    else w = (d('sliding_window', fam.slidingWindow), fam.slidingWindow);
    return { types: new Array(layers).fill(w === null ? 'full_attention' : 'sliding_attention'), rope: new Array(layers).fill(true), windows: new Array(layers).fill(w) };
  },

  // Qwen2/2.5/3 (configuration_qwen2.py; Qwen3 and the VL text configs the same): sliding_window
  // is None unless use_sliding_window; then layers i >= max_window_layers slide.
  qwen(text, layers, d) {
    const use = text.bool('use_sliding_window', false);
    const w = window(text);
    const effective = use ? w : null;
    let types = statedLayerTypes(text, layers);
    if (!types) {
      const from = text.has('max_window_layers') ? text.int('max_window_layers', 0, CONFIG_LIMITS.layers) : (d('max_window_layers', 28, 'Qwen2Config'), 28);
      types = Array.from({ length: layers }, (_, i) => (effective !== null && i >= from ? 'sliding_attention' : 'full_attention'));
    }
    return { types, rope: new Array(layers).fill(true), windows: types.map((t) => (t === 'sliding_attention' ? effective : null)), notes: use || w === null ? [] : [{ code: 'window-off', field: text.name('sliding_window'), message: 'use_sliding_window is false, so HF sets sliding_window to None: every layer attends to the full context' }] };
  },

  // Gemma 3 (huggingface/transformers@d98ac17 models/gemma3/configuration_gemma3.py, and the
  // layer_types rule of cyyever/transformers@2e772de): layer i slides unless (i+1) is a multiple
  // of sliding_window_pattern (default 6: five local layers, then one global).
  gemma3(text, layers, d) {
    let types = statedLayerTypes(text, layers);
    if (!types) {
      let pattern;
      if (text.has('sliding_window_pattern')) pattern = text.int('sliding_window_pattern', 1, CONFIG_LIMITS.layers);
      else if (text.has('_sliding_window_pattern')) pattern = text.int('_sliding_window_pattern', 1, CONFIG_LIMITS.layers);
      else pattern = (d('sliding_window_pattern', 6, 'Gemma3TextConfig'), 6);
      types = everyNth(layers, pattern).map((s) => (s ? 'sliding_attention' : 'full_attention'));
    }
    const w = text.has('sliding_window') ? text.int('sliding_window', ...LENGTH) : (d('sliding_window', 4096, 'Gemma3TextConfig'), 4096);
    return { types, rope: new Array(layers).fill(true), windows: types.map((t) => (t === 'sliding_attention' ? w : null)) };
  },

  // Cohere2 (Command R7B): layer_types from sliding_window_pattern (default 4,
  // cyyever/transformers@2e772de configuration_cohere2.py); RoPE only on the sliding layers
  // (huggingface/transformers@008e574 modular_cohere2.py: rotary applied if sliding_window is not
  // None), so the full layers have no positions at all.
  cohere2(text, layers, d) {
    let types = statedLayerTypes(text, layers);
    if (!types) {
      const pattern = text.has('sliding_window_pattern') ? text.int('sliding_window_pattern', 1, CONFIG_LIMITS.layers) : (d('sliding_window_pattern', 4, 'Cohere2Config'), 4);
      types = everyNth(layers, pattern).map((s) => (s ? 'sliding_attention' : 'full_attention'));
    }
    const w = window(text);
    const windows = types.map((t) => (t === 'sliding_attention' ? w : null));
    return { types, rope: windows.map((x) => x !== null), windows };
  },

  // gpt-oss (huggingface/transformers@02b8f42 configuration_gpt_oss.py): even layers slide
  // ("sliding_attention" if (i+1) % 2 else "full_attention"), all layers rotate.
  gptOss(text, layers) {
    const types = statedLayerTypes(text, layers) ?? Array.from({ length: layers }, (_, i) => ((i + 1) % 2 ? 'sliding_attention' : 'full_attention'));
    return withWindows(text, types);
  },

  // SmolLM3 (huggingface/transformers@6551e17 configuration_smollm3.py): no_rope_layers, when
  // None, is int((i+1) % no_rope_layer_interval != 0) (interval default 4); a layer slides only if
  // use_sliding_window and sliding_window are set and it is a NoPE layer.
  smollm3(text, layers, d) {
    let rope = ropeFlags(text, layers);
    if (rope === undefined) {
      const n = text.has('no_rope_layer_interval') ? text.int('no_rope_layer_interval', 1, CONFIG_LIMITS.layers) : (d('no_rope_layer_interval', 4, 'SmolLM3Config'), 4);
      rope = everyNth(layers, n);
    } else {
      text.touch('no_rope_layer_interval');
      if (rope.length === 0) throw new RangeError(`${text.name('no_rope_layers')} is empty; SmolLM3Config keeps an empty list, which leaves no layer to index`);
    }
    const use = text.bool('use_sliding_window', false);
    const w = window(text);
    const types = statedLayerTypes(text, layers) ?? rope.map((r) => (use && w !== null && !r ? 'sliding_attention' : 'full_attention'));
    return { types, rope, windows: types.map((t) => (t === 'sliding_attention' ? w : null)) };
  },

  // Llama 4 (Llama4TextConfig, huggingface/transformers@008e574 configuration_llama4.py and the
  // dataclass form seen in the index): no_rope_layers, when empty or None, every
  // no_rope_layer_interval-th layer NoPE (default 4); RoPE layers use chunked attention of
  // attention_chunk_size (default 8192), NoPE layers full attention and, with
  // attn_temperature_tuning, a query temperature (modeling_llama4.py@000c33f).
  llama4(text, layers, d) {
    let rope = ropeFlags(text, layers);
    if (!rope || rope.length === 0) {
      const n = text.has('no_rope_layer_interval') ? text.int('no_rope_layer_interval', 1, CONFIG_LIMITS.layers) : (d('no_rope_layer_interval', 4, 'Llama4TextConfig'), 4);
      rope = everyNth(layers, n);
    } else {
      text.touch('no_rope_layer_interval');
    }
    const types = statedLayerTypes(text, layers) ?? rope.map((r) => (r ? 'chunked_attention' : 'full_attention'));
    const chunk = text.has('attention_chunk_size') ? text.int('attention_chunk_size', ...LENGTH) : (Object.hasOwn(text.object, 'attention_chunk_size') ? null : (d('attention_chunk_size', 8192, 'Llama4TextConfig'), 8192));
    const tuning = text.has('attn_temperature_tuning') ? text.get('attn_temperature_tuning') : (d('attn_temperature_tuning', true, 'Llama4TextConfig'), true);
    if (typeof tuning !== 'boolean' && typeof tuning !== 'number') throw new TypeError(`${text.name('attn_temperature_tuning')} must be a boolean (HF tests its truth), got ${typeof tuning}`);
    let temperature = null;
    if (tuning) {
      const floorScale = text.has('floor_scale') ? text.number('floor_scale', { min: 0, max: 1e12, exclusiveMin: true }) : (d('floor_scale', 8192, 'Llama4TextConfig'), 8192);
      const attnScale = text.has('attn_scale') ? text.number('attn_scale', { min: 0, max: 1e6 }) : (d('attn_scale', 0.1, 'Llama4TextConfig'), 0.1);
      temperature = { floorScale, attnScale };
    } else {
      text.touch('floor_scale');
      text.touch('attn_scale');
    }
    return {
      types,
      rope,
      windows: types.map((t) => (t === 'chunked_attention' ? chunk : null)),
      temperature: rope.map((r) => (r ? null : temperature)),
    };
  },
};

/** Windows for stated or rule-made layer types: sliding_window on sliding layers, none elsewhere. */
function withWindows(text, types) {
  const sliding = types.some((t) => t === 'sliding_attention');
  const w = sliding ? window(text) : null;
  if (types.some((t) => t === 'chunked_attention')) {
    throw new TypeError(`${text.name('layer_types')} has 'chunked_attention', which only Llama 4 configs use`);
  }
  if (sliding && w === null) throw new TypeError(`${text.name('layer_types')} has sliding layers but sliding_window is missing`);
  return { types, rope: types.map(() => true), windows: types.map((t) => (t === 'sliding_attention' ? w : null)) };
}

