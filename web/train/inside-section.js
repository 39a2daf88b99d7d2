// The train step's "inside the models" section: one test example's attention maps through a
// set's model of the chosen family, the learned model's position table and the T5 model's
// biases, from the reference run's file or the reader's own trained parameters. The trainer on
// the page's thread is loaded here the first time it is needed (inspections, the table's
// analysis) and shared with the step (loadTrainer).
import { TRAIN_FAMILIES } from '../../wasm/train.js';
import { choice } from '../kit/controls.js';
import { h } from '../kit/dom.js';
import { lengthAt, longestTraining } from './aggregate.js';
import { attentionFigure } from './attention-figure.js';
import { compareFigure } from './compare-figure.js';
import { biasCurves, biasFigure, lastBucketStart } from './bias-figure.js';
import { familyName, listFormat } from './families.js';
import { fireFigure } from './fire-figure.js';
import { sequenceTokens } from './fixes.js';
import { learnedPanel } from './learned-panel.js';
import { firstRun, tensorOf } from './records.js';
import { referenceTrained } from './reference.js';
import { vocabulary } from './tokens.js';

/**
 * @param {{m:object, t:(key:string, vars?:object)=>string, values:object, set:(patch:object)=>void,
 *   core:object|null, platform:object, reference:()=>object|null, date:(iso:string)=>string}} o
 *   reference: the reference run's file once it has loaded; date: a set's creation time as text;
 *   training: whether a set is training now.
 */
export function insideSection({ m, t, values, set, core, platform, reference, date, training = () => false }) {
  const wasm = Boolean(core);
  let trainer = null;       // the trainer on this thread, once loaded (inspections, analysis)
  const inside = {
    family: choice({
      name: 'family', label: t('familyLabel'), value: values.family,
      options: TRAIN_FAMILIES.map((f) => ({ value: f, label: familyName(m, f) })), onChange: (v) => set({ family: v }),
    }),
    at: choice({
      name: 'at', label: t('atLabel'), value: values.at,
      options: [{ value: 'train', label: t('atTrain') }, { value: 'past', label: t('atPast') }], onChange: (v) => set({ at: v }),
    }),
  };
  const attention = attentionFigure(m);
  // The offset task's relative and absolute family side by side, past the training length.
  const compare = compareFigure(m, t);
  const learned = learnedPanel(m);
  const bias = biasFigure(m, {
    x: t('bias.x'), xBuckets: t('bias.xBuckets'), y: t('bias.y'), head: (n) => t('head', { n }), trained: t('bias.trained'),
    alt: (vars) => t('bias.alt', vars),
  });
  const biasNote = h('p', { class: 'train-note' });
  const fire = fireFigure(m, {
    x: t('bias.x'), y: t('bias.y'), trained: t('bias.trained'),
    series: (layer, head, query) => t('fire.series', { layer, head, query }), alt: (vars) => t('fire.alt', vars),
  });
  const fireNote = h('p', { class: 'train-note' });
  const insideEl = h('section', { class: 'train-inside', 'aria-labelledby': 'train-inside-title' },
    h('h3', { id: 'train-inside-title' }, t('insideTitle')),
    compare.el,
    h('p', { class: 'train-note' }, t('insideIntro')),
    h('div', { class: 'controls train-inside-controls' }, inside.family.el, inside.at.el),
    attention.el, learned.el,
    h('section', { class: 'train-t5', 'aria-labelledby': 'train-t5-title' }, h('h3', { id: 'train-t5-title' }, t('bias.title')), biasNote, bias.el),
    h('section', { class: 'train-fire-panel', 'aria-labelledby': 'train-fire-title' }, h('h3', { id: 'train-fire-title' }, t('fire.title')), fireNote, fire.el));

  const memo = { attention: null, compare: null, learned: null, bias: null, fire: null };
  const inspections = new Map();  // `${set}|${family}|${length}` → inspection (reader's sets)

  /** Rows a sequence of task length n has (the tokens the model reads), from the trainer. */
  const rowCounts = new Map();
  const rowsAt = (config, n) => {
    const key = `${config.task}|${config.symbols}|${n}`;
    if (!rowCounts.has(key)) rowCounts.set(key, trainer.examples(config, n, 1)[0].tokens.length - 1);
    return rowCounts.get(key);
  };
  // A turn of the event loop between the heavier drawings, so none makes one long task.
  const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

  /** The lengths the two examples are taken at: the longest training length, and twice it. */
  function exampleLength(s) {
    const longest = longestTraining(s.config);
    return values.at === 'train' ? longest : lengthAt(s.config, 2);
  }

  // Each drawing is keyed by what it shows: a set's model of one family (whose run may arrive
  // while the set trains), so a finished run of another family redraws nothing here.
  const modelKey = (s, family) => `${s.id}|${family}|${firstRun(s, family)?.seed ?? '-'}`;

  // The drawings still under way (they wait for turns and the trainer): a redraw that starts none
  // still waits for them, so the step does not say it is drawn while an earlier one is not.
  const inFlight = new Set();
  const track = (p) => {
    inFlight.add(p);
    const done = () => inFlight.delete(p);
    p.then(done, done);
    return p;
  };

  /** Draws what changed; resolves when its drawings and any still under way (which wait for turns) are done. */
  function drawInside(view) {
    const s = view.set;
    // Nothing is drawn into the closed fold while a set trains (each finished run would put the
    // trainer to work on this thread); opening the fold, or the set's end, renders the step.
    if (!s || (training() && insideEl.closest('details:not([open])'))) return Promise.allSettled([...inFlight]);
    const family = values.family;
    const length = exampleLength(s);
    const key = `${modelKey(s, family)}|${length}`;
    if (memo.attention !== key) {
      memo.attention = key;
      track(inspectionOf(s, family, length).then((ins) => {
        if (memo.attention !== key) return;
        attention.draw(ins, { layers: s.config.layers, heads: s.config.heads, vocab: vocabulary(s.config),
          family: familyName(m, family), longest: longestTraining(s.config) });
      }));
    }
    const compareKey = s.task === 'offset' ? compare.families.map((f) => modelKey(s, f)).join('|') : 'none';
    if (memo.compare !== compareKey) {
      memo.compare = compareKey;
      track(drawCompare(s, compareKey));
    }
    if (memo.learned !== modelKey(s, 'learned')) {
      memo.learned = modelKey(s, 'learned');
      track(drawLearned(s, memo.learned));
    }
    if (memo.bias !== modelKey(s, 't5')) {
      memo.bias = modelKey(s, 't5');
      track(drawBias(s, memo.bias));
    }
    if (memo.fire !== modelKey(s, 'fire')) {
      memo.fire = modelKey(s, 'fire');
      drawFire(s);
    }
    return Promise.allSettled([...inFlight]);
  }

  /** Test example 0 at `length` through the set's model of `family` (lowest seed); null if none. */
  async function inspectionOf(s, family, length) {
    if (s.source === 'reference') {
      const tr = referenceTrained(reference(), s.task, family);
      const list = tr?.inspections ?? [];
      return list.find((x) => x.length === length) ?? null;
    }
    const k = `${s.id}|${family}|${length}`;
    if (inspections.has(k)) return inspections.get(k);
    const run = firstRun(s, family);
    if (!run?.parameters || !wasm) return null;
    const tr = await loadTrainer();
    await turn();
    const live = tr.createRun({ ...s.config, family, seed: run.seed });
    try {
      live.setParameters(run.parameters.values);
      const x = live.inspect(length, 0);
      const ins = { length, tokens: x.tokens, answerStart: x.answerStart, predicted: x.predicted, rows: x.rows, attention: x.attention };
      inspections.set(k, ins);
      return ins;
    } finally {
      live.dispose();
    }
  }

  /** How many positions a training sequence reaches: the rows at the longest training length. */
  function trainedRows(s) {
    if (trainer) return rowsAt(s.config, longestTraining(s.config));
    const ins = reference() && referenceTrained(reference(), s.task, 'none')?.inspections.find((x) => x.length === longestTraining(s.config));
    return ins?.rows ?? 0;
  }

  function learnedSource(s) {
    return s.source === 'reference'
      ? t('learned.sourceReference', { task: t(`task.${s.task}`), steps: m.fixed(s.config.steps, 0) })
      : t('learned.sourceYours', { task: t(`task.${s.task}`), steps: m.fixed(s.config.steps, 0), date: date(s.created) });
  }

  function tableOf(s, family, name) {
    if (s.source === 'reference') {
      const tr = referenceTrained(reference(), s.task, family);
      return name === 'position.table' ? tr?.table ?? null : tr?.bias ?? null;
    }
    return tensorOf(firstRun(s, family)?.parameters, name);
  }

  /** The offset task's two families at twice the longest training length; hidden on other tasks. */
  async function drawCompare(s, key) {
    if (s.task !== 'offset') {
      compare.el.hidden = true;
      return;
    }
    const length = lengthAt(s.config, 2);
    const list = [];
    for (const f of compare.families) list.push(await inspectionOf(s, f, length));
    await turn();
    if (memo.compare !== key) return;
    compare.draw(list, {
      layers: s.config.layers, heads: s.config.heads, k: s.config.offset ?? 3, vocab: vocabulary(s.config),
      names: compare.families.map((f) => familyName(m, f)), length, longest: longestTraining(s.config),
    });
  }

  async function drawLearned(s, key) {
    const tbl = tableOf(s, 'learned', 'position.table');
    if (wasm) await loadTrainer().catch(() => null);
    await turn();
    if (memo.learned !== key) return;
    const seen = trainedRows(s);
    learned.draw({ table: tbl, trainedRows: seen, source: learnedSource(s), core });
    if (!tbl || !trainer) return;
    await turn();
    if (memo.learned === key) learned.analyse(trainer.analyseTable(tbl.values, tbl.rows, tbl.cols), { rows: tbl.rows, trainedRows: seen });
  }

  async function drawBias(s, key) {
    const b = tableOf(s, 't5', 'position.bias');
    bias.el.hidden = !b;
    if (!b) {
      biasNote.textContent = t('bias.missing');
      return;
    }
    if (wasm) await loadTrainer().catch(() => null);
    await turn();
    if (memo.bias !== key) return;
    const maxLength = Math.max(...s.config.testLengths);
    const byBucket = !core || !trainer;
    const curves = biasCurves(byBucket ? null : core, b, {
      maxDistance: byBucket ? 0 : rowsAt(s.config, maxLength) - 1, buckets: s.config.t5Buckets, t5MaxDistance: s.config.t5MaxDistance,
    });
    const seen = trainedRows(s) - 1;
    bias.draw(curves, { byBucket, trainedDistance: seen, captionText: t('bias.caption', { source: learnedSource(s) }) });
    biasNote.textContent = byBucket ? t('bias.noWasm') : t('bias.note', { seen, buckets: s.config.t5Buckets, maxd: lastBucketStart(core, { buckets: s.config.t5Buckets, t5MaxDistance: s.config.t5MaxDistance }) });
  }

  /** FIRE's tensors per layer for the set's FIRE model (lowest seed), or null. */
  function fireLayers(s) {
    if (s.source === 'reference') return referenceTrained(reference(), s.task, 'fire')?.fire ?? null;
    const run = firstRun(s, 'fire');
    if (!run?.parameters) return null;
    const names = ['in.weight', 'in.bias', 'out.weight', 'c', 'threshold'];
    const layers = Array.from({ length: s.config.layers }, (_, l) => Object.fromEntries(names.map((n) => [n, tensorOf(run.parameters, `position.fire.${l}.${n}`)])));
    return layers.every((layer) => names.every((n) => layer[n])) ? layers : null;
  }

  /** FIRE's bias against distance for a query at the end of the longest training sequence and of one twice as long. */
  function drawFire(s) {
    const layers = fireLayers(s);
    fire.el.hidden = !layers;
    if (!layers) {
      fireNote.textContent = t('fire.missing');
      return;
    }
    const { task, offset, randomPositions } = s.config;
    const longest = longestTraining(s.config);
    const positions = (n) => sequenceTokens(task, n, offset);
    const near = positions(longest) - 1;
    const far = positions(lengthAt(s.config, 2)) - 1;
    const L0 = (randomPositions > 0 ? randomPositions : positions(longest)) / 4;
    const curves = fire.draw(layers, { queries: [near, far], L0, trainedDistance: near, captionText: t('fire.caption', { source: learnedSource(s) }) });
    // Where each head's bias is highest, for the near and the far query: read off the curves drawn.
    const peak = (c) => c.x[c.y.indexOf(Math.max(...c.y))];
    const peaks = curves.filter((c) => !c.far).map((c) => {
      const farCurve = curves.find((x) => x.far && x.layer === c.layer && x.head === c.head);
      return t('fire.peak', { layer: c.layer + 1, head: c.head + 1, near: peak(c), far: peak(farCurve) });
    });
    fireNote.textContent = `${t('fire.note', { near, far })} ${t('fire.peaks', { near, far, list: listFormat(m).format(peaks) })}`;
  }

  function loadTrainer() {
    return platform.trainer().then((tr) => { trainer = tr; return tr; });
  }

  return {
    el: insideEl,
    draw: drawInside,
    /** The family and length choices as the values have them. */
    sync() {
      inside.family.set(values.family);
      inside.at.set(values.at);
    },
    loadTrainer,
  };
}
