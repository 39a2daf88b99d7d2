// web/steps/your-model/ (model.js, sentences.js) in Node, on both builds: for every atlas model and
// variant, what the step shows (plain frequencies, wavelengths, how many pairs turned in training,
// how many never turn in the context, the slowest pair's turns, the layer groups) against numbers
// this test computes itself from the formulas (θᵢ = base^(−2i/d), turns = n·θ/2π) and from
// modelPositions' own per-layer result; Llama 3.1's slowest pair worked out by hand from Meta's
// rule; pasted text (empty, too long, not JSON, hostile) and bad configs give named errors and
// leave the module working; the hash round trip; and every sentence in every language filled in.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

import { modelPositions } from '../../wasm/posenc.js';
import { LANGUAGES, loadMessages } from '../../web/i18n.js';
import { MAX_PASTE, MAX_READ, PASTED, SCORE_SAMPLES, allOnesScores, atlasEntries, hashFor, labState, lengthChoices, parsePasted, pastedFromHash, readConfig } from '../../web/steps/your-model/model.js';
import { formats, groupLine, sentences } from '../../web/steps/your-model/sentences.js';
import { loadBoth, moduleName } from './helpers.js';

const cores = await loadBoth();
const atlas = JSON.parse(readFileSync(new URL('../../web/data/atlas.json', import.meta.url), 'utf8'));
const entries = atlasEntries(atlas);
const rel = (a, b) => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);

test('the atlas as one list: every model, then its variants, with unique ids', () => {
  const want = atlas.models.reduce((n, mo) => n + 1 + (mo.variants?.length ?? 0), 0);
  assert.equal(entries.length, want);
  assert.equal(new Set(entries.map((e) => e.id)).size, want);
  assert.ok(!entries.some((e) => e.id === PASTED));
  const yarn = entries.find((e) => e.id === 'qwen3-8b-yarn');
  assert.equal(yarn.parent, 'qwen3-8b');
  assert.equal(yarn.config.rope_scaling.rope_type, 'yarn');
});

for (const pe of cores) {
  test(`${moduleName(pe)}: every atlas entry's pairs, turns and layer groups equal numbers computed here`, () => {
    for (const entry of entries) {
      const { summary, error } = readConfig(pe, entry.config);
      assert.equal(error, undefined, entry.id);
      const pos = modelPositions(pe, entry.config);
      const where = entry.id;
      const trained = pos.lengths.trained;
      const context = pos.lengths.declared ?? pos.lengths.extended;
      assert.equal(summary.trained, trained, where);
      assert.equal(summary.context, context, where);
      // The distinct RoPE settings, in the order of the layers that first use them.
      const seen = [];
      for (const l of pos.layers) if (l.rope && !seen.some((r) => r.base === l.rope.base && r.ropeType === l.rope.ropeType && r.factor === l.rope.factor)) seen.push(l.rope);
      assert.equal(summary.settings.length, seen.length, `${where}: settings`);
      for (const [k, s] of summary.settings.entries()) {
        const { rotaryDim: d, base } = seen[k];
        const half = d / 2;
        assert.equal(s.pairs, half, where);
        for (let i = 0; i < half; i++) {
          const theta = base ** (-(2 * i) / d);
          assert.ok(rel(s.plain[i], theta) < 1e-12, `${where} pair ${i}: plain θ ${s.plain[i]} vs ${theta}`);
          assert.ok(rel(s.wavelengths[i], (2 * Math.PI) / seen[k].invFreq[i]) < 1e-15, `${where} pair ${i}: wavelength`);
          assert.ok(rel(s.ratio[i], seen[k].invFreq[i] / theta) < 1e-12, `${where} pair ${i}: ratio`);
        }
        const plainTurns = Array.from({ length: half }, (_, i) => (trained ?? NaN) * base ** (-(2 * i) / d) / (2 * Math.PI));
        const scaledTurns = Array.from(seen[k].invFreq, (f) => (context ?? NaN) * f / (2 * Math.PI));
        if (trained === null) {
          assert.equal(s.turnedInTraining, null, where);
          assert.equal(s.slowestTrained, null, where);
        } else {
          assert.equal(s.turnedInTraining, plainTurns.filter((t) => t >= 1 - 1e-12).length, `${where}: pairs turned in training`);
          assert.ok(rel(s.slowestTrained, Math.min(...plainTurns)) < 1e-12, `${where}: slowest in training`);
        }
        assert.equal(s.never, scaledTurns.filter((t) => t < 1 - 1e-12).length, `${where}: pairs that never turn`);
        assert.equal(s.turnInContext + s.never, half, where);
        assert.ok(rel(s.slowestContext, Math.min(...scaledTurns)) < 1e-12, `${where}: slowest in the context ${s.slowestContext} vs ${Math.min(...scaledTurns)}`);
        assert.equal(s.scaledPairs, seen[k].scaling ? Array.from(seen[k].invFreq).filter((f, i) => f !== s.plain[i]).length : 0, where);
        assert.deepEqual(s.layers, pos.layers.filter((l) => l.rope && l.rope.base === base && l.rope.factor === seen[k].factor && l.rope.ropeType === seen[k].ropeType).map((l) => l.index), where);
      }
      // The lead setting: the full-attention layers' (Gemma 3's global ones), else the first.
      const leadLayer = pos.layers.find((l) => l.rope && l.attention === 'full') ?? pos.layers.find((l) => l.rope);
      assert.equal(summary.lead, leadLayer ? seen.findIndex((r) => r.base === leadLayer.rope.base && r.factor === leadLayer.rope.factor) : -1, where);
      // Every layer in exactly one group, which matches it.
      assert.equal(summary.layerGroup.length, pos.numLayers, where);
      assert.equal(summary.groups.reduce((n, g) => n + g.count, 0), pos.numLayers, where);
      pos.layers.forEach((l, i) => {
        const g = summary.groups[summary.layerGroup[i]];
        assert.deepEqual([g.kind, g.attention, g.window, g.base], [l.kind, l.attention, l.window, l.rope?.base ?? null], `${where} layer ${i}`);
        assert.ok(g.layers.includes(i));
      });
    }
  });

  test(`${moduleName(pe)}: Llama 3.1 8B, Gemma 3 4B, SmolLM3 and GPT-2 by hand`, () => {
    // Llama 3.1: base 500 000, 64 pairs; Meta's apply_scaling divides a pair by 8 when its
    // wavelength passes 8192 / low_freq_factor 1, keeps it below 8192 / 4 and blends between.
    const l31 = readConfig(pe, entries.find((e) => e.id === 'llama-3.1-8b').config).summary;
    const s = l31.settings[l31.lead];
    assert.deepEqual([l31.trained, l31.context, s.pairs], [8192, 131072, 64]);
    const theta = Array.from({ length: 64 }, (_, i) => 500000 ** (-i / 64));
    const scaled = theta.map((t) => {
      const wl = (2 * Math.PI) / t;
      if (wl < 8192 / 4) return t;
      if (wl > 8192) return t / 8;
      const smooth = (8192 / wl - 1) / (4 - 1);
      return (1 - smooth) * (t / 8) + smooth * t;
    });
    scaled.forEach((f, i) => assert.ok(rel(s.scaled[i], f) < 1e-12, `pair ${i}`));
    assert.ok(rel(s.slowestContext, (131072 * scaled[63]) / (2 * Math.PI)) < 1e-12);
    assert.ok(s.slowestContext < 0.01, `the slowest pair turns ${s.slowestContext} times in 131,072 tokens`);
    assert.equal(s.turnedInTraining, theta.filter((t) => (2 * Math.PI) / t <= 8192).length);
    assert.equal(s.rope.attentionFactor, 1);
    assert.deepEqual(labState(l31), { family: 'rope', d: 128, base: 500000, layout: 'half', scaling: 'llama3', factor: 8, orig: 8192,
      betaFast: undefined, betaSlow: undefined, lowFreq: 1, highFreq: 4 });

    // Gemma 3 4B: 5 sliding layers (window 1024, base 10 000) then 1 global (base 1e6, linear ×8),
    // 34 layers; the global setting leads; linear scaling states no training length.
    const gemma = readConfig(pe, entries.find((e) => e.id === 'gemma-3-4b').config).summary;
    const globalLayers = Array.from({ length: 34 }, (_, i) => i).filter((i) => i % 6 === 5);
    assert.deepEqual(gemma.settings[gemma.lead].layers, globalLayers);
    assert.equal(gemma.settings[gemma.lead].rope.base, 1e6);
    assert.equal(gemma.trained, null);
    assert.deepEqual(gemma.groups.map((g) => [g.attention, g.window, g.base, g.count]), [['sliding', 1024, 10000, 29], ['full', null, 1e6, 5]]);
    gemma.settings[gemma.lead].ratio.forEach((r) => assert.ok(rel(r, 1 / 8) < 1e-12));

    // SmolLM3: every 4th layer (3, 7, ...) without positions.
    const smol = readConfig(pe, entries.find((e) => e.id === 'smollm3-3b').config).summary;
    const nope = smol.groups.find((g) => g.kind === 'none');
    assert.deepEqual(nope.layers, Array.from({ length: 9 }, (_, k) => 4 * k + 3));

    // GPT-2: no pairs, one group of 12 learned layers.
    const gpt2 = readConfig(pe, entries.find((e) => e.id === 'gpt2').config).summary;
    assert.deepEqual([gpt2.lead, gpt2.settings.length, gpt2.groups.length, gpt2.groups[0].count], [-1, 0, 1, 12]);
    assert.deepEqual(labState(gpt2), { family: 'learned' });
  });

  test(`${moduleName(pe)}: the all-ones score against the distance equals all-ones vectors rotated by the core's ropeApply and dotted`, () => {
    let checked = 0;
    for (const entry of entries) {
      const { summary } = readConfig(pe, entry.config);
      const curve = allOnesScores(summary);
      const s = summary.settings[summary.lead];
      if (!s) {
        assert.equal(curve, null, entry.id);
        continue;
      }
      const end = summary.context ?? summary.trained;
      assert.equal(curve.distances.length, SCORE_SAMPLES + 1);
      assert.equal(curve.distances[SCORE_SAMPLES], end);
      // The core rotates q = ones at each distance (times the attention factor, as HF) and k = ones
      // at 0; their dot product over the rotated part, plus 1 per dimension left unrotated.
      const { rotaryDim: d, base, scaling, layout } = s.rope;
      const q = pe.ropeApply(new Float32Array(curve.distances.length * d).fill(1), Array.from(curve.distances), d, { base, scaling, layout });
      const k = pe.ropeApply(new Float32Array(d).fill(1), [0], d, { base, scaling, layout });
      for (let j = 0; j < curve.distances.length; j++) {
        let dot = summary.headDim - d;
        for (let i = 0; i < d; i++) dot += q[j * d + i] * k[i];
        // float32 rotations (2e-6 per element at these positions) summed over d terms.
        assert.ok(Math.abs(curve.scores[j] - dot) <= 4e-6 * d * s.rope.attentionFactor ** 2 + 1e-9, `${entry.id} at ${curve.distances[j]}: ${curve.scores[j]} vs ${dot}`);
      }
      checked++;
    }
    assert.ok(checked >= 15, `${checked} models checked`);
  });

  test(`${moduleName(pe)}: the length of the text switches LongRoPE's factors and grows dynamic NTK's base, as HF does`, () => {
    // Phi-3.5: HF's longrope uses short_factor while the longest position is within
    // original_max_position_embeddings (also the state it loads in), long_factor past it:
    // θᵢ = 1 / (factorᵢ · base^(2i/d)), d = head_dim · partial_rotary_factor.
    const phi = entries.find((e) => e.id === 'phi-3.5-mini').config;
    const sc = phi.rope_scaling;
    const d = (phi.hidden_size / phi.num_attention_heads) * (phi.partial_rotary_factor ?? 1);
    const expect = (factors) => factors.map((f, i) => 1 / (f * phi.rope_theta ** ((2 * i) / d)));
    const loaded = readConfig(pe, phi).summary;
    const choices = lengthChoices(loaded);
    assert.deepEqual(choices, [
      { seqLen: 0, kind: 'short', n: phi.original_max_position_embeddings },
      { seqLen: phi.max_position_embeddings, kind: 'long', n: phi.max_position_embeddings },
    ]);
    const at = (len) => readConfig(pe, phi, len).summary.settings[0].scaled;
    for (const [len, factors] of [[0, sc.short_factor], [phi.original_max_position_embeddings, sc.short_factor],
      [phi.original_max_position_embeddings + 1, sc.long_factor], [phi.max_position_embeddings, sc.long_factor]]) {
      expect(factors).forEach((f, i) => assert.ok(rel(at(len)[i], f) < 1e-12, `length ${len}, pair ${i}: ${at(len)[i]} vs ${f}`));
    }
    // Within the context the reading length is not a new context.
    assert.equal(readConfig(pe, phi, phi.max_position_embeddings).summary.context, phi.max_position_embeddings);

    // Dynamic NTK: base' = base · (factor · L / L_max − (factor − 1))^(d / (d − 2)) once the
    // length L passes max_position_embeddings; the context drawn is then L.
    const dyn = { model_type: 'llama', hidden_size: 512, num_attention_heads: 8, num_hidden_layers: 2, max_position_embeddings: 4096,
      rope_theta: 10000, rope_scaling: { rope_type: 'dynamic', factor: 2 } };
    const asLoaded = readConfig(pe, dyn).summary;
    assert.deepEqual(lengthChoices(asLoaded).map((c) => [c.seqLen, c.kind]), [[0, 'loaded'], [8192, 'grown'], [16384, 'grown'], [32768, 'grown']]);
    for (const len of [8192, 32768]) {
      const grown = readConfig(pe, dyn, len).summary;
      const base = 10000 * (2 * len / 4096 - 1) ** (64 / 62);
      grown.settings[0].scaled.forEach((f, i) => assert.ok(rel(f, base ** (-(2 * i) / 64)) < 1e-12, `dynamic at ${len}, pair ${i}`));
      assert.equal(grown.context, len);
    }
    assert.ok(lengthChoices(asLoaded).every((c) => c.seqLen <= MAX_READ));

    // A scaling that does not depend on the length offers no choice.
    for (const id of ['llama-3.1-8b', 'gpt2', 'gemma-3-4b', 'qwen3-8b']) {
      assert.equal(lengthChoices(readConfig(pe, entries.find((e) => e.id === id).config).summary), null, id);
    }
  });

  test(`${moduleName(pe)}: bad configs give the API's named error and leave the module working`, () => {
    const before = readConfig(pe, entries.find((e) => e.id === 'llama-2-7b').config).summary;
    const cases = [
      [{ hidden_size: 64, num_attention_heads: 4, num_hidden_layers: 2 }, 'TypeError', /model_type/],
      [{ model_type: 'llama', hidden_size: 64, num_attention_heads: 4, num_hidden_layers: 2, rope_scaling: { rope_type: 'warp', factor: 2 } }, null, /rope_type/],
      [{ model_type: 'llama', hidden_size: 64, num_attention_heads: 4 }, null, /num_hidden_layers/],
      [{ model_type: 'llama', hidden_size: 64, num_attention_heads: 4, num_hidden_layers: -3 }, 'RangeError', /num_hidden_layers/],
      [{ model_type: 'no-such-model' }, 'TypeError', /model_type/],
      [[1, 2, 3], 'TypeError', /config/],
      ['llama', 'TypeError', /config/],
      [null, 'TypeError', /config/],
      [JSON.parse('{"__proto__": {"model_type": "llama"}, "hidden_size": 64}'), 'TypeError', /model_type/],
    ];
    for (const [config, name, pattern] of cases) {
      const { summary, error } = readConfig(pe, config);
      assert.equal(summary, undefined, JSON.stringify(config));
      assert.equal(error.kind, 'config');
      assert.ok(['TypeError', 'RangeError'].includes(error.name), error.name);
      if (name) assert.equal(error.name, name, error.message);
      assert.match(error.message, pattern);
    }
    const after = readConfig(pe, entries.find((e) => e.id === 'llama-2-7b').config).summary;
    assert.deepEqual(Array.from(after.settings[0].scaled), Array.from(before.settings[0].scaled));
  });
}

test('pasted text: empty, too long and not JSON are named; JSON is parsed; the hash keeps it exactly', () => {
  assert.deepEqual(parsePasted('  \n'), { error: { kind: 'empty' } });
  assert.deepEqual(parsePasted(' '.repeat(MAX_PASTE) + '{}'), { error: { kind: 'size', length: MAX_PASTE + 2 } });
  const bad = parsePasted('{"model_type": "llama",}');
  assert.equal(bad.error.kind, 'json');
  let want = '';
  try { JSON.parse('{"model_type": "llama",}'); } catch (e) { want = e.message; }
  assert.equal(bad.error.message, want);
  // Deep nesting: parsed (or refused) without a crash, and never read as a config.
  const deep = parsePasted(`${'['.repeat(99999)}${']'.repeat(99999)}`);
  assert.ok(deep.error || readConfig(cores[0], deep.config).error.message.includes('config'));
  assert.ok(parsePasted('['.repeat(150000)).error);
  const config = { model_type: 'llama', note: 'ünïcødé <b>&</b> #%', rope_scaling: { rope_type: 'linear', factor: 2 } };
  assert.deepEqual(parsePasted(JSON.stringify(config, null, 2)), { config });
  const hash = hashFor(config);
  assert.ok(hash.startsWith('#config='));
  assert.ok(!/[\s<>"#]/.test(hash.slice(1)), 'nothing the address would change');
  assert.deepEqual(JSON.parse(pastedFromHash(hash)), config);
  assert.equal(pastedFromHash('#faq'), '');
  assert.equal(pastedFromHash(''), '');
  assert.equal(pastedFromHash('#config=%E0%A4%A'), '%E0%A4%A', 'a malformed escape is kept as text (then refused as JSON)');
  assert.equal(parsePasted(pastedFromHash('#config=%E0%A4%A')).error.kind, 'json');
});

const part = (lang, name) => readFile(new URL(`../../web/i18n/${lang}/${name}.json`, import.meta.url), 'utf8').then(JSON.parse);

for (const lang of LANGUAGES) {
  test(`${lang}: every atlas entry's sentences and layer legend are filled in, numbers as the locale writes them`, async () => {
    const m = await loadMessages(lang, part, ['page', 'your-model']);
    const { sig, int } = formats(m);
    const pe = cores[0];
    for (const entry of entries) {
      const { summary } = readConfig(pe, entry.config);
      const text = [...sentences(m, entry.name, summary), ...summary.groups.map((g) => groupLine(m, summary, g))];
      for (const t of text) {
        assert.ok(t.length > 10, `${lang} ${entry.id}: ${t}`);
        assert.ok(!/[{}]/.test(t), `${lang} ${entry.id}: a placeholder left in "${t}"`);
      }
      const s = summary.settings[summary.lead];
      if (s && summary.context !== null && (s.rope.scaling || summary.context !== summary.trained)) {
        assert.ok(text.some((t) => t.includes(sig(s.slowestContext)) && t.includes(int(summary.context))),
          `${lang} ${entry.id}: a sentence gives the slowest pair's ${sig(s.slowestContext)} turns in ${int(summary.context)} tokens`);
      }
      if (s && summary.trained !== null) {
        assert.ok(text.some((t) => t.includes(int(summary.trained)) && t.includes(String(s.turnedInTraining))), `${lang} ${entry.id}: pairs turned in training`);
      }
    }
  });
}

test('en: the sentences of Llama 3.1 8B read as written, with its numbers', async () => {
  const m = await loadMessages('en', part, ['page', 'your-model']);
  const { summary } = readConfig(cores[0], entries.find((e) => e.id === 'llama-3.1-8b').config);
  const s = summary.settings[summary.lead];
  const slowest = m.fixed(s.slowestContext, 1 - Math.floor(Math.log10(s.slowestContext)));
  const said = sentences(m, 'Llama 3.1 8B', summary).join(' ');
  assert.ok(said.includes('Llama 3.1 8B rotates all 128 dimensions of each head, as 64 pairs, with base 500,000.'), said);
  assert.ok(said.includes(`At its original length of 8,192 tokens, before the scaling, ${s.turnedInTraining} of its 64 pairs turn fully at least once`), said);
  assert.ok(said.includes(`Its llama3 scaling ×8 stretches it to 131,072 tokens: there the slowest pair turns ${slowest} times, and ${s.never} pairs never complete a turn.`), said);
  assert.ok(said.includes('Factor times original length gives 65,536 tokens, while max_position_embeddings says 131,072'), said);
});

test('ru: counts before nouns take their plural forms', async () => {
  const m = await loadMessages('ru', part, ['page', 'your-model']);
  const smol = readConfig(cores[0], entries.find((e) => e.id === 'smollm3-3b').config).summary;
  const said = sentences(m, 'SmolLM3', smol).join(' ');
  assert.ok(said.includes('9 из 36 слоёв'), said);
  const gemma = readConfig(cores[0], entries.find((e) => e.id === 'gemma-3-4b').config).summary;
  const lines = gemma.groups.map((g) => groupLine(m, gemma, g));
  assert.ok(lines[0].startsWith('29 слоёв'), lines[0]);
  assert.ok(lines[1].startsWith('5 слоёв'), lines[1]);
  const phi = readConfig(cores[0], entries.find((e) => e.id === 'gpt-oss-20b').config).summary;
  assert.ok(phi.groups.map((g) => groupLine(m, phi, g)).every((l) => l.startsWith('12 слоёв')));
});

test('en: a context in which every pair turns says so rather than "0 pairs never complete a turn"', async () => {
  const m = await loadMessages('en', part, ['page', 'your-model']);
  // Base 100 over 65,536 tokens: the slowest of 32 pairs has wavelength 2π·100^(62/64) ≈ 548.
  const config = { model_type: 'llama', hidden_size: 256, num_attention_heads: 4, num_hidden_layers: 2, max_position_embeddings: 65536,
    rope_theta: 100, rope_scaling: { rope_type: 'linear', factor: 2 } };
  const { summary } = readConfig(cores[0], config);
  const s = summary.settings[summary.lead];
  assert.equal(s.never, 0);
  assert.ok(65536 / ((2 * Math.PI) / (100 ** (-62 / 64) / 2)) > 1);
  const said = sentences(m, 'Tiny', summary).join(' ');
  assert.ok(said.includes('so every pair completes a turn'), said);
  assert.ok(!said.includes('0 pairs'), said);
});
