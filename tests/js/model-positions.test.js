// modelPositions(config) (wasm/model.js) on both builds, against tests/hf/rope_reference.py: a
// float64 transcription of Hugging Face transformers' own reading of a config (standardized rope
// parameters, each rope_type's inverse frequencies and attention factor, each family's layer rule,
// DeepSeek's two softmax scales, BLOOM's slopes). Every atlas model (web/data/atlas.json) and a set
// of configs made to reach every rope_type and its options go through both; the expected numbers
// are the transcription's, to 1e-12 relative. Then hostile configs: each must end in a named
// TypeError/RangeError, and the module must work the same afterwards.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { modelPositions } from '../../wasm/posenc.js';
import { assertAllClose, assertClose, loadBoth, moduleName } from './helpers.js';
import { PYTHON } from './python.js';

const modules = await loadBoth();
const root = new URL('../../', import.meta.url);
const atlas = JSON.parse(readFileSync(new URL('web/data/atlas.json', root), 'utf8'));

// The transcription runs once for all cases (one Python process; NumPy imports once).
function reference(jobs) {
  return new Promise((resolve, reject) => {
    const child = execFile(PYTHON, [new URL('tests/hf/rope_reference.py', root).pathname], { maxBuffer: 1 << 26, timeout: 120000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout));
    });
    child.stdin.end(JSON.stringify(jobs));
  });
}

// 1e-12 relative, as the issue asks; float64 on both sides, the same formulas.
const REL = { abs: 0, rel: 1e-12 };

// [CASES] -------------------------------------------------------------------------------------
const llama = (extra = {}) => ({
  model_type: 'llama', hidden_size: 512, num_attention_heads: 4, num_hidden_layers: 2, max_position_embeddings: 4096, rope_theta: 10000, ...extra,
});
const yarn = (scaling, extra = {}) => llama({ max_position_embeddings: 65536, rope_scaling: { rope_type: 'yarn', factor: 16, original_max_position_embeddings: 4096, ...scaling }, ...extra });
const shortFactor = Array.from({ length: 64 }, (_, i) => 1 + i / 64);
const longFactor = Array.from({ length: 64 }, (_, i) => 1 + i / 2);
const longrope = (scaling, extra = {}) => llama({ max_position_embeddings: 131072, original_max_position_embeddings: 4096, rope_scaling: { type: 'longrope', short_factor: shortFactor, long_factor: longFactor, ...scaling }, ...extra });
const llama3 = (scaling, extra = {}) => llama({ rope_theta: 500000, max_position_embeddings: 131072, rope_scaling: { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192, ...scaling }, ...extra });

const MADE = [
  ['default', llama()],
  ['default, no rope_theta (LlamaConfig default 10000)', llama({ rope_theta: undefined })],
  ['default, head_dim stated', llama({ head_dim: 96 })],
  ['partial_rotary_factor 0.5 at the top level', llama({ partial_rotary_factor: 0.5 })],
  ['partial_rotary_factor inside the rope dict', llama({ rope_scaling: { rope_type: 'default', partial_rotary_factor: 0.25 } })],
  ['linear ×4', llama({ rope_scaling: { type: 'linear', factor: 4 } })],
  ['dynamic ×2 at load', llama({ rope_scaling: { rope_type: 'dynamic', factor: 2 } })],
  ['dynamic ×2 at 8192 tokens', llama({ rope_scaling: { rope_type: 'dynamic', factor: 2 } }), 8192],
  ['dynamic ×2 at 1000 tokens (below max)', llama({ rope_scaling: { rope_type: 'dynamic', factor: 2 } }), 1000],
  ['dynamic with an original length HF does not use', llama({ rope_scaling: { rope_type: 'dynamic', factor: 3, original_max_position_embeddings: 1024 } }), 20000],
  ['yarn ×16', yarn({})],
  ['yarn mscale 1 / mscale_all_dim 0.5', yarn({ mscale: 1, mscale_all_dim: 0.5 })],
  ['yarn mscale only (default factor)', yarn({ mscale: 2 })],
  ['yarn mscale_all_dim 0 (falls back)', yarn({ mscale: 1, mscale_all_dim: 0 })],
  ['yarn attention_factor stated', yarn({ attention_factor: 0.9 })],
  ['yarn truncate false', yarn({ truncate: false })],
  ['yarn betas 16 / 2', yarn({ beta_fast: 16, beta_slow: 2 })],
  ['yarn beta_fast 0 (HF: `or 32`)', yarn({ beta_fast: 0, beta_slow: null })],
  ['yarn factor null (derived: 65536 / 4096)', yarn({ factor: null })],
  ['yarn without an original length (max_position_embeddings)', llama({ rope_scaling: { rope_type: 'yarn', factor: 4 } })],
  ['yarn whose factor disagrees with max / original (4.4x override)', yarn({ factor: 4, original_max_position_embeddings: 32768 }, { max_position_embeddings: 40960 })],
  ['yarn with the original at the top level too (top level wins)', yarn({ original_max_position_embeddings: 2048 }, { original_max_position_embeddings: 4096 })],
  ['longrope short (at load)', longrope({})],
  ['longrope at 4096 tokens (short)', longrope({}), 4096],
  ['longrope at 4097 tokens (long)', longrope({}), 4097],
  ['longrope with a stated factor', longrope({ factor: 8 })],
  ['longrope with attention_factor', longrope({ attention_factor: 1.5 }), 50000],
  ['longrope with the original inside the dict only', longrope({ original_max_position_embeddings: 8192 }, { original_max_position_embeddings: undefined }), 9000],
  ['llama3 8 / 1 / 4', llama3({})],
  ['llama3 2 / 8, factor 32', llama3({ factor: 32, low_freq_factor: 2, high_freq_factor: 8 })],
  ['llama3 with equal low and high factors (Llama 4 Scout)', llama3({ factor: 16, low_freq_factor: 1, high_freq_factor: 1 })],
  ['llama3 with high below low', llama3({ factor: 16, low_freq_factor: 4, high_freq_factor: 2 })],
  ['mistral with a window on every layer', { model_type: 'mistral', hidden_size: 256, num_attention_heads: 4, num_hidden_layers: 3, max_position_embeddings: 32768, rope_theta: 1e6, sliding_window: 4096 }],
  ['mistral without sliding_window or max_position_embeddings (MistralConfig defaults 4096, 131072)', { model_type: 'mistral', hidden_size: 256, num_attention_heads: 4, num_hidden_layers: 2 }],
  ['mistral with a layer_types MistralConfig does not read', { model_type: 'mistral', hidden_size: 256, num_attention_heads: 4, num_hidden_layers: 2, sliding_window: null, layer_types: ['sliding_attention', 'full_attention'] }],
  ['mixtral without a window', { model_type: 'mixtral', hidden_size: 256, num_attention_heads: 4, num_hidden_layers: 2, max_position_embeddings: 32768, sliding_window: null }],
  ['qwen2 sliding on layers ≥ max_window_layers', { model_type: 'qwen2', hidden_size: 256, num_attention_heads: 4, num_hidden_layers: 5, max_position_embeddings: 32768, rope_theta: 1e6, use_sliding_window: true, sliding_window: 4096, max_window_layers: 2 }],
  ['qwen3 window off', { model_type: 'qwen3', hidden_size: 256, num_attention_heads: 4, head_dim: 64, num_hidden_layers: 3, max_position_embeddings: 40960, use_sliding_window: false, sliding_window: 4096 }],
  ['qwen2_5_vl with type mrope', { model_type: 'qwen2_5_vl', hidden_size: 3584, num_attention_heads: 28, num_hidden_layers: 2, max_position_embeddings: 128000, rope_theta: 1e6, rope_scaling: { type: 'mrope', mrope_section: [16, 24, 24] } }],
  ['gemma3 wrapper with class defaults', { model_type: 'gemma3', text_config: { hidden_size: 2560, num_attention_heads: 8, num_hidden_layers: 13, num_key_value_heads: 4, rope_scaling: { factor: 8, rope_type: 'linear' }, sliding_window: 1024 }, vision_config: { hidden_size: 1152 }, image_token_index: 262144 }],
  ['gemma3 transformers-5 form: rope_parameters per layer type', {
    model_type: 'gemma3_text', hidden_size: 32, num_attention_heads: 2, head_dim: 16, num_hidden_layers: 4, max_position_embeddings: 512, sliding_window: 64,
    layer_types: ['sliding_attention', 'sliding_attention', 'sliding_attention', 'full_attention'],
    rope_parameters: { full_attention: { rope_theta: 1e6, rope_type: 'yarn', factor: 4, original_max_position_embeddings: 128, truncate: false }, sliding_attention: { rope_theta: 1e4, rope_type: 'default' } },
  }],
  ['cohere2 with its pattern', { model_type: 'cohere2', hidden_size: 512, num_attention_heads: 4, num_hidden_layers: 8, max_position_embeddings: 8192, rope_theta: 50000, sliding_window: 4096, sliding_window_pattern: 4 }],
  ['gpt_oss without layer_types (default theta 150000)', { model_type: 'gpt_oss', hidden_size: 2880, num_attention_heads: 64, head_dim: 64, num_hidden_layers: 4, max_position_embeddings: 131072, sliding_window: 128, rope_scaling: { rope_type: 'yarn', factor: 32, beta_fast: 32, beta_slow: 1, original_max_position_embeddings: 4096, truncate: false } }],
  ['smollm3 with sliding NoPE layers', { model_type: 'smollm3', hidden_size: 256, num_attention_heads: 4, num_hidden_layers: 8, rope_theta: 5e6, use_sliding_window: true, sliding_window: 4096 }],
  ['llama4 wrapper, Scout-like: NoPE every 4th layer, llama3 without a band', { model_type: 'llama4', text_config: { hidden_size: 5120, num_attention_heads: 40, head_dim: 128, num_hidden_layers: 8, max_position_embeddings: 10485760, rope_theta: 500000, rope_scaling: { rope_type: 'llama3', factor: 16, low_freq_factor: 1, high_freq_factor: 1, original_max_position_embeddings: 8192 } } }],
  ['llama4 with no_rope_layers stated and tuning off', { model_type: 'llama4_text', hidden_size: 256, num_attention_heads: 2, num_hidden_layers: 4, no_rope_layers: [1, 0, 1, 0], attn_temperature_tuning: false, attention_chunk_size: 1024 }],
  ['deepseek_v3 with unequal mscales', { model_type: 'deepseek_v3', num_attention_heads: 16, num_hidden_layers: 2, qk_nope_head_dim: 128, qk_rope_head_dim: 64, max_position_embeddings: 163840, rope_theta: 10000, rope_scaling: { type: 'yarn', factor: 40, original_max_position_embeddings: 4096, beta_fast: 32, beta_slow: 1, mscale: 1, mscale_all_dim: 0.5 } }],
  ['deepseek_v3 with mscale 0.707 on both', { model_type: 'deepseek_v3', num_attention_heads: 16, num_hidden_layers: 2, qk_nope_head_dim: 128, qk_rope_head_dim: 64, max_position_embeddings: 163840, rope_scaling: { type: 'yarn', factor: 40, original_max_position_embeddings: 4096, mscale: 0.707, mscale_all_dim: 0.707 } }],
  ['gpt_neox without rotary_pct (GPTNeoXConfig default 0.25)', { model_type: 'gpt_neox', hidden_size: 6144, num_attention_heads: 64, num_hidden_layers: 2, max_position_embeddings: 2048 }],
  ['gpt2 with its model_type', { model_type: 'gpt2', n_positions: 2048, n_embd: 1600, n_head: 25, n_layer: 3 }],
  ['bloom with a power-of-two head count', { model_type: 'bloom', hidden_size: 1024, n_layer: 2, n_head: 16 }],
  ['mt5 with its decoder depth', { model_type: 'mt5', d_kv: 64, num_heads: 6, num_layers: 3, num_decoder_layers: 2, relative_attention_num_buckets: 64, relative_attention_max_distance: 256 }],
];

const ATLAS = atlas.models.flatMap((m) => [[`atlas ${m.id}`, m.config], ...(m.variants ?? []).map((v) => [`atlas ${m.id} / ${v.id}`, v.config])]);
// JSON drops undefined keys, as a config.json would have them absent.
const CASES = [...ATLAS, ...MADE].map(([label, config, seqLen]) => ({ label, config: JSON.parse(JSON.stringify(config)), seqLen }));
const expected = await reference(CASES.map((c) => ({ config: c.config, seq_len: c.seqLen ?? null })));

const ATTENTION = { full_attention: 'full', sliding_attention: 'sliding', chunked_attention: 'chunked' };

function compareRope(got, want, label) {
  assert.equal(got.ropeType, want.rope_type, `${label}: rope_type`);
  assert.equal(got.rotaryDim, want.rotary_dim, `${label}: rotary width`);
  assert.equal(got.base, want.base, `${label}: base`);
  assert.ok(got.invFreq instanceof Float64Array, `${label}: invFreq is a Float64Array`);
  assertAllClose(got.invFreq, want.inv_freq, REL, `${label}: invFreq`);
  assertClose(got.attentionFactor, want.attention_factor, REL, `${label}: attention factor`);
}

function compare(got, want, label) {
  assert.equal(got.layers.length, want.layers.length, `${label}: layer count`);
  assert.equal(got.numLayers, got.layers.length, `${label}: numLayers`);
  got.layers.forEach((layer, i) => {
    const w = want.layers[i];
    const at = `${label}, layer ${i}`;
    assert.equal(layer.index, i, `${at}: index`);
    if (w.learned !== undefined) {
      assert.equal(layer.kind, 'learned', at);
      assert.equal(layer.learned.rows, w.learned, `${at}: rows`);
      return;
    }
    if (w.alibi !== undefined) {
      assert.equal(layer.kind, 'alibi', at);
      assertAllClose(layer.alibi.slopes, w.alibi, REL, `${at}: slopes`);
      return;
    }
    if (w.t5 !== undefined) {
      const [numBuckets, maxDistance, bidirectional, ownTable] = w.t5;
      assert.equal(layer.kind, 't5', at);
      assert.deepEqual(layer.t5, { numBuckets, maxDistance, bidirectional, ownTable }, at);
      assert.equal(layer.stack, bidirectional ? 'encoder' : 'decoder', at);
      return;
    }
    assert.equal(layer.attention, ATTENTION[w.attention], `${at}: attention`);
    assert.equal(layer.window, w.window, `${at}: window`);
    assert.deepEqual(layer.temperature, w.temperature && { floorScale: w.temperature.floor_scale, attnScale: w.temperature.attn_scale }, `${at}: temperature`);
    if (!w.rotates) {
      assert.equal(layer.kind, 'none', `${at}: a NoPE layer`);
      assert.equal(layer.rope, null, at);
      return;
    }
    assert.equal(layer.kind, w.rope.rotary_dim < layer.headDim ? 'partial-rope' : 'rope', `${at}: kind`);
    compareRope(layer.rope, w.rope, at);
    // The trained length is the original one of the full-attention layers' setting.
    if (w.rope.original !== undefined && layer.attention === 'full') assert.equal(got.lengths.trained, w.rope.original, `${at}: trained length`);
    const older = got.divergences.find((d) => d.code === 'yarn-factor-override');
    if (w.rope.older) {
      assert.ok(older, `${at}: the 4.4x factor override is reported`);
      assert.equal(older.older.factor, w.rope.older.factor, `${at}: older factor`);
      assertAllClose(older.older.invFreq, w.rope.older.inv_freq, REL, `${at}: older invFreq`);
      assertClose(older.older.attentionFactor, w.rope.older.attention_factor, REL, `${at}: older attention factor`);
      assert.equal(older.modelUses, 'current');
    } else {
      assert.equal(older, undefined, `${at}: no factor override to report`);
    }
  });
  if (want.softmax) {
    const d = got.divergences.find((x) => x.code === 'mla-softmax-scale');
    assert.ok(d, `${label}: DeepSeek's softmax scale is reported`);
    assertClose(d.hf.softmaxScale, want.softmax.hf, REL, `${label}: HF softmax scale`);
    assertClose(d.original.softmaxScale, want.softmax.original, REL, `${label}: DeepSeek's softmax scale`);
    assert.equal(d.modelUses, 'original');
    const af = got.layers[0].rope.attentionFactor;
    assertClose(d.hf.rotatedScale, want.softmax.hf * af * af, REL, `${label}: HF's scale of the rotated dims`);
    assert.equal(d.agree, Math.abs(want.softmax.hf * af * af - want.softmax.original) <= 1e-12 * want.softmax.original && Math.abs(want.softmax.hf - want.softmax.original) <= 1e-12 * want.softmax.original, `${label}: agree`);
  }
}

/** Every key of the config, of text_config, of the rope dicts and of per-layer-type rope dicts, as dotted paths. */
function keysOf(config) {
  const out = [];
  const plain = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
  const keys = (obj, path) => Object.keys(obj).map((k) => (out.push(path + k), k));
  const ropeDicts = (obj, path) => {
    for (const k of ['rope_scaling', 'rope_parameters']) {
      if (!plain(obj[k])) continue;
      for (const sub of keys(obj[k], `${path}${k}.`)) if (plain(obj[k][sub])) keys(obj[k][sub], `${path}${k}.${sub}.`);
    }
  };
  keys(config, '');
  ropeDicts(config, '');
  if (plain(config.text_config)) {
    keys(config.text_config, 'text_config.');
    ropeDicts(config.text_config, 'text_config.');
  }
  return out;
}

for (const pe of modules) {
  describe(`${moduleName(pe)}: modelPositions against HF's code (tests/hf/rope_reference.py)`, () => {
    CASES.forEach(({ label, config, seqLen }, n) => {
      test(label + (seqLen !== undefined ? ` (seqLen ${seqLen})` : ''), () => {
        const got = modelPositions(pe, config, seqLen === undefined ? undefined : { seqLen });
        compare(got, expected[n], label);
        // Nothing dropped silently: each key is read or listed as ignored (a parent may stand for its keys).
        const accounted = new Set([...got.read, ...got.ignored.map((x) => x.field)]);
        for (const key of keysOf(config)) {
          const parents = key.split('.').map((_, i, all) => all.slice(0, i + 1).join('.'));
          assert.ok(parents.some((p) => accounted.has(p)), `${label}: ${key} is neither read nor listed as ignored`);
        }
      });
    });

    test('every atlas model and variant has a source for its config and reads without error', () => {
      assert.ok(atlas.models.length >= 15 && atlas.models.length <= 20, `${atlas.models.length} models`);
      for (const m of atlas.models) {
        assert.ok(Object.keys(m.sources).length > 0, `${m.id}: sources`);
        assert.ok(m.status && m.notes && m.name, `${m.id}: status, notes, name`);
        for (const v of m.variants ?? []) assert.ok(Object.keys(v.sources).length > 0, `${m.id}/${v.id}: sources`);
      }
      assert.equal(new Set(atlas.models.map((m) => m.id)).size, atlas.models.length, 'ids are unique');
    });

    test('layers with the same RoPE setting share one object; Gemma 3 has two (local and global)', () => {
      const gemma = atlas.models.find((m) => m.id === 'gemma-3-4b').config;
      const r = modelPositions(pe, gemma);
      const ropes = new Set(r.layers.map((l) => l.rope));
      assert.equal(ropes.size, 2);
      const local = r.layers[0].rope;
      const global = r.layers[5].rope;
      assert.equal(local.base, 10000);
      assert.equal(global.base, 1e6);
      assert.equal(global.ropeType, 'linear');
      assert.equal(r.layers[5].attention, 'full');
      assert.equal(r.layers[0].window, 1024);
    });

    test('an ignored key whose name is about positions is flagged (Command R7B\'s rotary_pct)', () => {
      const r = modelPositions(pe, atlas.models.find((m) => m.id === 'command-r7b').config);
      const flagged = r.ignored.filter((x) => x.looksPositional).map((x) => x.field);
      assert.ok(flagged.includes('rotary_pct') && flagged.includes('position_embedding_type'), flagged.join(', '));
      assert.ok(r.ignored.some((x) => x.field === 'head_dim'), 'Cohere2 does not read head_dim');
      assert.ok(!r.ignored.find((x) => x.field === 'layer_switch').looksPositional);
    });

    test('a multimodal wrapper reads text_config and lists its other keys as other-part', () => {
      const r = modelPositions(pe, CASES.find((c) => c.label.startsWith('gemma3 wrapper')).config);
      assert.equal(r.modelType, 'gemma3_text');
      assert.deepEqual(r.ignored.filter((x) => x.reason === 'other-part').map((x) => x.field).sort(), ['image_token_index', 'vision_config']);
      assert.ok(r.defaults.some((x) => x.field === 'text_config.head_dim' && x.value === 256 && x.from === 'Gemma3TextConfig'));
      assert.ok(r.ignored.some((x) => x.field === 'text_config.num_key_value_heads' && x.reason === 'not-read'));
    });

    test('mrope_section outside Qwen-VL is left unread and listed, as HF only warns about it', () => {
      const r = modelPositions(pe, llama({ rope_scaling: { rope_type: 'default', mrope_section: [16, 24, 24] } }));
      assert.equal(r.layers[0].rope.mropeSection, null);
      assert.ok(r.ignored.some((x) => x.field === 'rope_scaling.mrope_section' && x.reason === 'not-read'));
    });

    test('rope_scaling wins over rope_parameters, which is listed as superseded', () => {
      const r = modelPositions(pe, llama({ rope_scaling: { type: 'linear', factor: 2 }, rope_parameters: { rope_type: 'linear', factor: 8 } }));
      assert.equal(r.layers[0].rope.factor, 2);
      assert.deepEqual(r.ignored.filter((x) => x.reason === 'superseded').map((x) => x.field), ['rope_parameters']);
    });

    test('lengths: trained, declared and extended as the config states them', () => {
      const l31 = modelPositions(pe, atlas.models.find((m) => m.id === 'llama-3.1-8b').config);
      assert.deepEqual(l31.lengths, { trained: 8192, declared: 131072, extended: 65536 });
      assert.ok(l31.notes.some((x) => x.code === 'extended-differs'));
      const dyn = modelPositions(pe, llama({ rope_scaling: { rope_type: 'dynamic', factor: 2 } }));
      assert.deepEqual(dyn.lengths, { trained: 4096, declared: 4096, extended: null });
      const t5 = modelPositions(pe, atlas.models.find((m) => m.id === 't5-base').config);
      assert.deepEqual(t5.lengths, { trained: 512, declared: null, extended: null });
    });
  });
}

// [HOSTILE INPUT] ----------------------------------------------------------------------------
const sparse = (length) => {
  const a = [];
  a[length - 1] = 0;
  return a;
};
const deep = (n) => {
  let o = {};
  for (let i = 0; i < n; i++) o = { a: o };
  return o;
};
const withGetter = (key) => Object.defineProperty(llama(), key, { enumerable: true, get() { throw new Error('getter ran'); } });
const manyKeys = () => Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i]));

// [label, config (or thunk), options, class, pattern naming the field]
const HOSTILE = [
  ['null', null, undefined, TypeError, /config/],
  ['a number', 42, undefined, TypeError, /config/],
  ['a string of JSON', '{"model_type":"llama"}', undefined, TypeError, /config/],
  ['an array', [llama()], undefined, TypeError, /config/],
  ['a typed array', new Float64Array(4), undefined, TypeError, /config/],
  ['no model_type', { hidden_size: 64 }, undefined, TypeError, /model_type/],
  ['model_type inherited through the prototype only', Object.create({ model_type: 'llama' }), undefined, TypeError, /model_type/],
  ['unknown model_type', llama({ model_type: 'gemma4' }), undefined, TypeError, /model_type "gemma4"/],
  ['model_type __proto__', llama({ model_type: '__proto__' }), undefined, TypeError, /model_type/],
  ['model_type constructor', llama({ model_type: 'constructor' }), undefined, TypeError, /model_type/],
  ['model_type toString', llama({ model_type: 'toString' }), undefined, TypeError, /model_type/],
  ['model_type a number', llama({ model_type: 3 }), undefined, TypeError, /model_type/],
  ['model_type 100 kB long', llama({ model_type: 'x'.repeat(100000) }), undefined, RangeError, /model_type/],
  ['num_hidden_layers missing', llama({ num_hidden_layers: undefined }), undefined, TypeError, /num_hidden_layers/],
  ['num_hidden_layers a string', llama({ num_hidden_layers: '32' }), undefined, TypeError, /num_hidden_layers/],
  ['num_hidden_layers 1e9', llama({ num_hidden_layers: 1e9 }), undefined, RangeError, /num_hidden_layers/],
  ['num_hidden_layers -1', llama({ num_hidden_layers: -1 }), undefined, RangeError, /num_hidden_layers/],
  ['num_hidden_layers 1.5', llama({ num_hidden_layers: 1.5 }), undefined, RangeError, /num_hidden_layers/],
  ['hidden_size NaN', llama({ hidden_size: NaN }), undefined, RangeError, /hidden_size/],
  ['hidden_size Infinity', llama({ hidden_size: Infinity }), undefined, RangeError, /hidden_size/],
  ['hidden_size a BigInt', llama({ hidden_size: 4096n }), undefined, TypeError, /hidden_size/],
  ['heads larger than hidden', llama({ hidden_size: 8, num_attention_heads: 16 }), undefined, RangeError, /hidden_size/],
  ['head_dim odd under partial_rotary_factor', llama({ head_dim: 66, partial_rotary_factor: 0.5 }), undefined, RangeError, /rotary width/],
  ['rope_theta -1', llama({ rope_theta: -1 }), undefined, RangeError, /rope_theta/],
  ['rope_theta 1', llama({ rope_theta: 1 }), undefined, RangeError, /rope_theta/],
  ['rope_theta 1e13', llama({ rope_theta: 1e13 }), undefined, RangeError, /rope_theta/],
  ['rope_theta an object', llama({ rope_theta: { full_attention: 1e6 } }), undefined, TypeError, /rope_theta/],
  ['max_position_embeddings 2^31', llama({ max_position_embeddings: 2 ** 31 }), undefined, RangeError, /max_position_embeddings/],
  ['rope_scaling a string', llama({ rope_scaling: 'yarn' }), undefined, TypeError, /rope_scaling/],
  ['rope_scaling an array', llama({ rope_scaling: [1, 2] }), undefined, TypeError, /rope_scaling/],
  ['unknown rope_type', llama({ rope_scaling: { rope_type: 'su', factor: 2 } }), undefined, TypeError, /rope_scaling\.rope_type/],
  ['rope_type proportional (not in the core)', llama({ rope_scaling: { rope_type: 'proportional' } }), undefined, TypeError, /rope_scaling\.rope_type/],
  ['type mrope outside Qwen-VL (no such rope_type in ROPE_INIT_FUNCTIONS)', llama({ rope_scaling: { type: 'mrope', mrope_section: [2, 3, 3] } }), undefined, TypeError, /rope_scaling\.type/],
  ['linear factor 0.5', llama({ rope_scaling: { rope_type: 'linear', factor: 0.5 } }), undefined, RangeError, /rope_scaling\.factor/],
  ['linear factor missing', llama({ rope_scaling: { rope_type: 'linear' } }), undefined, TypeError, /rope_scaling\.factor/],
  ['yarn factor a string', yarn({ factor: '16' }), undefined, TypeError, /rope_scaling\.factor/],
  ['yarn factor missing', llama({ rope_scaling: { rope_type: 'yarn', original_max_position_embeddings: 4096 } }), undefined, TypeError, /rope_scaling\.factor/],
  ['yarn beta_fast negative', yarn({ beta_fast: -3 }), undefined, RangeError, /rope_scaling\.beta_fast/],
  ['yarn truncate a string', yarn({ truncate: 'false' }), undefined, TypeError, /rope_scaling\.truncate/],
  ['yarn attention_factor 0', yarn({ attention_factor: 0 }), undefined, RangeError, /rope_scaling\.attention_factor/],
  ['yarn original 1.5', yarn({ original_max_position_embeddings: 1.5 }), undefined, RangeError, /original_max_position_embeddings/],
  ['dynamic without max_position_embeddings', llama({ max_position_embeddings: undefined, rope_scaling: { rope_type: 'dynamic', factor: 2 } }), undefined, TypeError, /max_position_embeddings/],
  ['longrope factors of the wrong length', longrope({ short_factor: [1, 2, 3] }), undefined, RangeError, /rope_scaling\.short_factor/],
  ['longrope factor list of 2^24 + 1 (sparse)', longrope({ long_factor: sparse(2 ** 24 + 1) }), undefined, RangeError, /rope_scaling\.long_factor/],
  ['longrope factor a string item', longrope({ long_factor: [...longFactor.slice(1), 'x'] }), undefined, TypeError, /rope_scaling\.long_factor\[63\]/],
  ['longrope factor 0 item', longrope({ short_factor: [0, ...shortFactor.slice(1)] }), undefined, RangeError, /rope_scaling\.short_factor\[0\]/],
  ['longrope factor a hole', longrope({ short_factor: [, ...shortFactor.slice(1)] }), undefined, TypeError, /rope_scaling\.short_factor\[0\]/], // eslint-disable-line no-sparse-arrays
  ['llama3 missing high_freq_factor', llama3({ high_freq_factor: undefined }), undefined, TypeError, /rope_scaling\.high_freq_factor/],
  ['mrope_section not adding up', { model_type: 'qwen2_5_vl', hidden_size: 3584, num_attention_heads: 28, num_hidden_layers: 2, rope_scaling: { type: 'mrope', mrope_section: [16, 24, 25] } }, undefined, RangeError, /mrope_section/],
  ['layer_types of the wrong length', { ...atlas.models.find((m) => m.id === 'gpt-oss-20b').config, layer_types: ['full_attention'] }, undefined, RangeError, /layer_types/],
  ['layer_types with __proto__', { ...atlas.models.find((m) => m.id === 'gpt-oss-20b').config, layer_types: new Array(24).fill('__proto__') }, undefined, TypeError, /layer_types\[0\]/],
  ['layer_types 10^7 long (sparse)', { ...atlas.models.find((m) => m.id === 'gpt-oss-20b').config, layer_types: sparse(1e7) }, undefined, RangeError, /layer_types/],
  ['no_rope_layers with a 2', { ...atlas.models.find((m) => m.id === 'smollm3-3b').config, no_rope_layers: new Array(36).fill(2) }, undefined, TypeError, /no_rope_layers\[0\]/],
  ['no_rope_layers too short', { ...atlas.models.find((m) => m.id === 'smollm3-3b').config, no_rope_layers: [1, 1, 1, 0] }, undefined, RangeError, /no_rope_layers/],
  ['sliding_window -5', { ...atlas.models.find((m) => m.id === 'mistral-7b-v0.1').config, sliding_window: -5 }, undefined, RangeError, /sliding_window/],
  ['per-layer-type dict missing a type', { model_type: 'gemma3_text', hidden_size: 32, num_attention_heads: 2, head_dim: 16, num_hidden_layers: 2, layer_types: ['sliding_attention', 'full_attention'], rope_parameters: { full_attention: { rope_type: 'default' } } }, undefined, TypeError, /rope_parameters\.sliding_attention/],
  ['text_config a string', { model_type: 'gemma3', text_config: 'x' }, undefined, TypeError, /text_config/],
  ['position_embedding_type relative_key', { model_type: 'bert', hidden_size: 768, num_attention_heads: 12, num_hidden_layers: 2, position_embedding_type: 'relative_key' }, undefined, TypeError, /position_embedding_type/],
  ['T5 odd bucket count', { model_type: 't5', d_kv: 64, num_heads: 2, num_layers: 1, relative_attention_num_buckets: 33 }, undefined, RangeError, /relative_attention_num_buckets/],
  ['a getter on rope_theta', () => withGetter('rope_theta'), undefined, TypeError, /rope_theta.*getter/],
  ['a getter on model_type', () => withGetter('model_type'), undefined, TypeError, /model_type.*getter/],
  ['5000 keys', () => ({ ...llama(), ...manyKeys() }), undefined, RangeError, /keys/],
  ['a 300-character key', () => ({ ...llama(), ['k'.repeat(300)]: 1 }), undefined, RangeError, /key of 300 characters/],
  ['dynamic on a 2-wide rotary part', llama({ head_dim: 2, rope_scaling: { rope_type: 'dynamic', factor: 2 } }), undefined, RangeError, /rope_scaling\.rope_type 'dynamic'/],
  ['a Proxy whose ownKeys trap throws', () => new Proxy(llama(), { ownKeys() { throw new Error('trap'); } }), undefined, TypeError, /config could not be read/],
  ['a Proxy whose descriptor trap throws on rope_scaling', () => new Proxy(llama({ rope_scaling: {} }), { getOwnPropertyDescriptor(t, k) { if (k === 'rope_scaling') throw new Error('trap'); return Reflect.getOwnPropertyDescriptor(t, k); } }), undefined, TypeError, /config could not be read/], // Object.keys already asks each key's descriptor
  ['options not an object', llama(), 'long', TypeError, /options/],
  ['options with an unknown key', llama(), { seqLength: 5 }, TypeError, /options\.seqLength/],
  ['options.seqLen -1', llama(), { seqLen: -1 }, RangeError, /options\.seqLen/],
  ['options.seqLen 2^31', llama(), { seqLen: 2 ** 31 }, RangeError, /options\.seqLen/],
  ['options.seqLen a string', llama(), { seqLen: '8' }, TypeError, /options\.seqLen/],
];

for (const pe of modules) {
  describe(`${moduleName(pe)}: hostile configs end in a named error and change nothing`, () => {
    const before = modelPositions(pe, atlas.models.find((m) => m.id === 'llama-3.1-8b').config);
    const freqBefore = pe.ropeFrequencies(64, { base: 500000, scaling: { type: 'yarn', factor: 8, originalMaxPositions: 4096 } });

    for (const [label, config, options, cls, pattern] of HOSTILE) {
      test(label, () => {
        const value = typeof config === 'function' ? config() : config;
        assert.throws(() => modelPositions(pe, value, options), (err) => {
          assert.ok(err instanceof cls, `${label}: ${err.constructor.name}: ${err.message}`);
          if (pattern) assert.match(err.message, pattern, label);
          return true;
        });
      });
    }

    test('prototype keys are read as plain keys: listed as ignored, nothing polluted', () => {
      const config = JSON.parse('{"model_type":"llama","hidden_size":64,"num_attention_heads":2,"num_hidden_layers":1,"__proto__":{"rope_theta":5},"constructor":{"prototype":{"x":1}},"rope_scaling":{"__proto__":{"rope_type":"yarn"},"rope_type":"linear","factor":2}}');
      const r = modelPositions(pe, config);
      assert.equal(r.layers[0].rope.base, 10000, 'rope_theta from __proto__ is not read');
      assert.equal(r.layers[0].rope.ropeType, 'linear');
      const ignored = r.ignored.map((x) => x.field);
      for (const f of ['__proto__', 'constructor', 'rope_scaling.__proto__']) assert.ok(ignored.includes(f), `${f} listed: ${ignored.join(', ')}`);
      assert.equal({}.rope_theta, undefined);
      assert.equal({}.rope_type, undefined);
      assert.equal(Object.prototype.x, undefined);
    });

    test('deep nesting under any key is listed, not walked', () => {
      const config = { ...llama(), extra: deep(100000), rope_scaling: { rope_type: 'linear', factor: 2, nested: deep(100000) }, text_config_like: { text_config: deep(1000) } };
      const r = modelPositions(pe, config);
      const ignored = r.ignored.map((x) => x.field);
      assert.ok(ignored.includes('extra') && ignored.includes('rope_scaling.nested') && ignored.includes('text_config_like'), ignored.join(', '));
    });

    test('after every hostile config the module returns exactly what it did before', () => {
      const after = modelPositions(pe, atlas.models.find((m) => m.id === 'llama-3.1-8b').config);
      assert.deepEqual(after, before);
      assert.deepEqual(pe.ropeFrequencies(64, { base: 500000, scaling: { type: 'yarn', factor: 8, originalMaxPositions: 4096 } }), freqBefore);
    });
  });
}

test('modelPositions refuses a first argument that is not a loaded Posenc, naming pe', () => {
  const config = { model_type: 'llama', hidden_size: 64, num_attention_heads: 4, num_hidden_layers: 2, max_position_embeddings: 128 };
  for (const bad of [undefined, null, {}, config, { ropeFrequencies: () => {} }]) {
    assert.throws(() => modelPositions(bad, config), (e) => e instanceof TypeError && /\bpe\b/.test(e.message));
  }
});
