// Step "your-model", the words: the sentences that say what a model's positions do ("the slowest
// pair turns 0.0065 times in 131,072 tokens") and the layer map's legend, from the catalog and a
// summary (model.js). DOM-free, so tests/js/your-model.test.js reads them in Node in every language.

/** Number formats of the step: whole numbers, and turns with two significant digits. */
export function formats(m) {
  const int = (v) => m.fixed(v, 0);
  // Two significant digits (0.0065, 0.31, 3.4, 46), never more than 4 fraction digits; past 100 whole.
  const digitsFor = (v) => (v === 0 || !Number.isFinite(v) ? 0 : Math.min(4, Math.max(0, 1 - Math.floor(Math.log10(Math.abs(v))))));
  const sig = (v) => m.fixed(v, digitsFor(v));
  const factor = (v) => m.fixed(v, Number.isInteger(v) ? 0 : Math.min(4, digitsFor(v) + 1));
  const fixed4 = (v) => m.fixed(v, 4);
  return { int, sig, factor, fixed4, digitsFor };
}

/** The scaling's name as HF's rope_type spells it (a code name: not translated). */
export const scalingName = (rope) => (rope.scaling?.type === 'llama3-no-band' ? 'llama3' : rope.ropeType);

/** The legend line of one group of layers: "5 layers: RoPE, full attention, base 1,000,000". */
export function groupLine(m, summary, group) {
  const { int, factor } = formats(m);
  const parts = [];
  if (group.stack) parts.push(m.t(group.stack === 'encoder' ? 'your-model.groupEncoder' : 'your-model.groupDecoder'));
  const s = group.setting >= 0 ? summary.settings[group.setting] : null;
  switch (group.kind) {
    case 'rope': parts.push(m.t('your-model.groupRope')); break;
    case 'partial-rope': parts.push(m.t('your-model.groupPartial', { r: s.rope.rotaryDim, d: summary.headDim })); break;
    case 'none': parts.push(m.t(group.temperature ? 'your-model.groupNopeTemperature' : 'your-model.groupNope')); break;
    case 'learned': parts.push(m.t('your-model.groupLearned')); break;
    case 'alibi': parts.push(m.t('your-model.groupAlibi')); break;
    default: parts.push(m.t(summary.positions.layers[group.layers[0]].t5.ownTable ? 'your-model.groupT5Own' : 'your-model.groupT5Shared'));
  }
  // (Learned tables, ALiBi and T5 attend to every key: no word about the attention.)
  if (!['rope', 'partial-rope', 'none'].includes(group.kind)) return m.t('your-model.groupLine', { n: group.count, what: parts.join(m.t('your-model.groupSep')) });
  if (group.attention === 'sliding') parts.push(m.t('your-model.groupSliding', { w: int(group.window) }));
  else if (group.attention === 'chunked') parts.push(m.t('your-model.groupChunked', { w: int(group.window) }));
  else parts.push(m.t('your-model.groupFull'));
  if (s) {
    parts.push(m.t('your-model.groupBase', { base: int(s.rope.base) }));
    if (s.rope.scaling) parts.push(m.t('your-model.groupScaling', { type: scalingName(s.rope), s: factor(s.rope.factor) }));
  }
  return m.t('your-model.groupLine', { n: group.count, what: parts.join(m.t('your-model.groupSep')) });
}

/**
 * The sentences under the figure, in order: what the lead setting rotates, what its pairs did in
 * training and do in the context, the attention factor, then the layers (NoPE, windows, bases).
 * For a model without RoPE: what it does instead.
 */
export function sentences(m, name, summary) {
  const { int, sig, factor } = formats(m);
  const out = [];
  const { trained, context, headDim, numLayers } = summary;
  if (summary.kind === 'learned') {
    const rows = summary.positions.layers[0].learned.rows;
    return [m.t('your-model.sLearned', { name, rows: int(rows), last: int(rows - 1) })];
  }
  if (summary.kind === 'alibi') {
    const slopes = summary.positions.layers[0].alibi.slopes;
    return [m.t('your-model.sAlibi', { name, heads: summary.heads, max: sig(Math.max(...slopes)), min: sig(Math.min(...slopes)) })];
  }
  if (summary.kind === 't5') {
    const { numBuckets, maxDistance } = summary.positions.layers[0].t5;
    return [m.t('your-model.sT5', { name, buckets: numBuckets, half: numBuckets / 2, maxd: int(maxDistance) })];
  }
  const s = summary.settings[summary.lead];
  if (!s) return [m.t('your-model.sNoRotation', { name, n: numLayers })];
  const { rope } = s;
  out.push(rope.rotaryDim < headDim
    ? m.t('your-model.sRotatesPart', { name, r: rope.rotaryDim, d: headDim, pairs: s.pairs, base: int(rope.base) })
    : m.t('your-model.sRotatesAll', { name, d: headDim, pairs: s.pairs, base: int(rope.base) }));
  if (trained !== null) {
    // With a scaling, trained is original_max_position_embeddings: the length before extension;
    // without, it is only the length the config declares.
    out.push(m.t(rope.scaling ? 'your-model.sTrained' : 'your-model.sWithin', { L: int(trained), k: s.turnedInTraining, total: s.pairs, t: sig(s.slowestTrained) }));
  } else {
    out.push(m.t('your-model.sTrainedUnknown', { type: scalingName(rope) }));
  }
  if (context !== null && (rope.scaling || context !== trained)) {
    const vars = { Lx: int(context), t: sig(s.slowestContext), never: s.never, type: scalingName(rope), s: factor(rope.factor) };
    const key = s.never === 0
      ? (rope.scaling ? 'your-model.sContextScaledAll' : 'your-model.sContextPlainAll')
      : (rope.scaling ? 'your-model.sContextScaled' : 'your-model.sContextPlain');
    out.push(m.t(key, vars));
  }
  const { lengths } = summary.positions;
  if (rope.scaling && lengths.extended !== null && lengths.declared !== null && lengths.extended !== lengths.declared) {
    out.push(m.t('your-model.sExtendedDiffers', { ext: int(lengths.extended), decl: int(lengths.declared) }));
  }
  if (rope.attentionFactor !== 1) {
    out.push(m.t('your-model.sFactor', { a: m.fixed(rope.attentionFactor, 4), a2: m.fixed(rope.attentionFactor ** 2, 4) }));
  }
  if (rope.mropeSection) {
    const [t, hh, w] = rope.mropeSection;
    out.push(m.t('your-model.sMrope', { t, h: hh, w }));
  }
  // The layers: NoPE, windows, a second base.
  const nope = summary.groups.filter((g) => g.kind === 'none').reduce((n, g) => n + g.count, 0);
  if (nope > 0) out.push(m.t('your-model.sNope', { k: nope, n: numLayers }));
  // A window as long as the context never cuts anything (Phi-3.5's 262,144): not worth a sentence.
  const windowed = summary.groups.filter((g) => g.attention !== 'full' && (context === null || g.window < context));
  if (windowed.length) {
    const k = windowed.reduce((n, g) => n + g.count, 0);
    const w = Math.min(...windowed.map((g) => g.window));
    const chunked = windowed[0].attention === 'chunked';
    const key = k === numLayers ? (chunked ? 'your-model.sChunkedAll' : 'your-model.sSlidingAll') : (chunked ? 'your-model.sChunked' : 'your-model.sSliding');
    out.push(m.t(key, { k, n: numLayers, w: int(w) }));
  }
  const other = summary.settings.find((x, i) => i !== summary.lead && x.rope.base !== rope.base);
  if (other) out.push(m.t('your-model.sTwoBases', { k: other.layers.length, local: int(other.rope.base), global: int(rope.base) }));
  return out;
}
