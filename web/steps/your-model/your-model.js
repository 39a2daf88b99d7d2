// Step "your-model": a real model's positions. An atlas model (web/data/atlas.json) or a pasted
// config.json is read by modelPositions (wasm/model.js, as Hugging Face reads it); the chart shows
// each rotation pair's wavelength, plain and scaled, against the training length and the context;
// the readouts and sentences say how many pairs turned in training and how often the slowest turns
// in the context; a strip shows what every layer does with positions. A second model can be drawn
// beside it. The fold: the scaling per pair, what the reader filled in or left unread, and the
// atlas entry's sources. State: ?model=<atlas id>&vs=<atlas id>, a pasted config in #config=.
// This file holds the controls and the drawing; your-model/ the numbers (model.js), the words
// (sentences.js) and the atlas (atlas.js).
import { h } from '../../kit/dom.js';
import { LinePlot } from '../../kit/lineplot.js';
import { LogPlot } from '../../kit/logplot.js';
import { button, choice } from '../../kit/controls.js';
import { readout, readoutRow } from '../../kit/readout.js';
import { paragraphs, stepFrame } from '../../kit/step.js';
import { whenIdleEach } from '../../kit/idle.js';
import { ATLAS } from './atlas.js';
import { MAX_PASTE, MAX_READ, PASTED, SCORE_SAMPLES, allOnesScores, atlasEntries, hashFor, labState, lengthChoices, parsePasted, pastedFromHash, readConfig } from './model.js';
import { formats, groupLine, scalingName, sentences } from './sentences.js';

export const id = 'your-model';
const ENTRIES = atlasEntries(ATLAS);
const BY_ID = new Map(ENTRIES.map((e) => [e.id, e]));
const DEFAULT = 'llama-3.1-8b';
const NONE = 'none';

export const params = {
  model: { type: 'enum', values: [...ENTRIES.map((e) => e.id), PASTED], default: DEFAULT },
  vs: { type: 'enum', values: [NONE, ...ENTRIES.map((e) => e.id)], default: NONE, quiet: true },
  // The length of the text the first model reads, for a scaling that depends on it (lengthChoices):
  // 0 is the state Hugging Face loads the model in.
  len: { type: 'int', min: 0, max: MAX_READ, default: 0, quiet: true },
};

/** Ticks for a pair axis of n pairs: 0, a round step, ..., and the last pair. */
function pairTicks(n, most = 8) {
  const step = [1, 2, 4, 8, 16, 32, 64].find((s) => n / s <= most) ?? 128;
  const ticks = [];
  for (let t = 0; t < n - step / 2; t += step) ticks.push(t);
  ticks.push(n - 1);
  return ticks;
}

/** The class of a layer group in the strip: what it draws (a colour and a pattern). */
const cellClass = (g) => (g.kind === 'none' ? 'nope' : g.kind === 'rope' || g.kind === 'partial-rope' ? g.attention : 'other');

export function mount(root, { core, m, values, setter, index, total }) {
  const slots = stepFrame(root, m, { id, index, total, downloads: 'deeper' });
  const { int, sig, fixed4, factor } = formats(m);
  const uid = Math.random().toString(36).slice(2, 8);

  // [MODELS] ----------------------------------------------------------------------------------
  // `${atlas id}@${length}` → readConfig's result (the atlas reads without error: tested).
  const cache = new Map();
  const atlasRead = (entryId, len = 0) => {
    const key = `${entryId}@${len}`;
    if (!cache.has(key)) cache.set(key, readConfig(core, BY_ID.get(entryId).config, len));
    return cache.get(key);
  };
  let pasted = null;  // { config, summary, n } of the last pasted config that read (n: how many so far)
  let pastes = 0;
  let pastedAt = null;  // { len, summary } of the pasted config read at a length other than 0
  const pastedSummary = (len) => {
    if (!len) return pasted.summary;
    if (pastedAt?.n !== pasted.n || pastedAt.len !== len) {
      const read = readConfig(core, pasted.config, len);
      pastedAt = { n: pasted.n, len, summary: read.summary ?? pasted.summary };
    }
    return pastedAt.summary;
  };
  /** { name, summary, entry } of a choice (the pasted config, or an atlas entry), read at length len. */
  const chosen = (pick, len = 0) => (pick === PASTED
    ? { name: m.t('your-model.pastedName', { type: pasted.summary.modelType }), summary: pastedSummary(len), entry: null }
    : { name: BY_ID.get(pick).name, summary: atlasRead(pick, len).summary, entry: BY_ID.get(pick) });

  // [CONTROLS] --------------------------------------------------------------------------------
  const option = (e) => h('option', { value: e.id }, e.name);
  const pastedOption = h('option', { value: PASTED }, m.t('your-model.pastedOption'));
  const modelSelect = h('select', { id: `ym-model-${uid}`, name: 'model' }, ENTRIES.map(option));
  const vsSelect = h('select', { id: `ym-vs-${uid}`, name: 'vs' },
    h('option', { value: NONE }, m.t('your-model.compareNone')), ENTRIES.map(option));
  // A new model is read as loaded: the length of the text belonged to the one before.
  modelSelect.addEventListener('change', () => set({ model: modelSelect.value, len: 0 }));
  vsSelect.addEventListener('change', () => set({ vs: vsSelect.value }));
  const pick = (label, select) => h('div', { class: 'control ym-pick' }, h('label', { for: select.id }, label), select);

  // The box takes twice what is read: a paste that is too long is named as such (errorSize), not
  // cut by the browser into JSON that no longer parses.
  const area = h('textarea', { id: `ym-paste-${uid}`, name: 'config', rows: 6, spellcheck: 'false', autocomplete: 'off',
    autocapitalize: 'off', maxlength: MAX_PASTE * 2, class: 'ym-area' });
  const error = h('p', { class: 'ym-error', role: 'alert' });
  const readButton = button({ name: 'read-config', label: m.t('your-model.pasteShow'), onClick: () => readPasted() });
  const pasteBox = h('details', { class: 'ym-paste' }, h('summary', {}, m.t('your-model.paste')),
    h('div', { class: 'ym-paste-body' },
      h('label', { for: area.id }, m.t('your-model.pasteLabel')), area,
      h('p', { class: 'control-hint' }, m.t('your-model.pasteHelp')),
      h('div', {}, readButton), error));
  // The length of the text, for a model whose scaling depends on it: its choices are the model's.
  const lengthBox = h('div', { class: 'ym-length' });
  let lengthControl = null;
  let lengthKey = '';
  function drawLength(summary, key) {
    const choices = lengthChoices(summary);
    lengthBox.hidden = !choices;
    if (!choices) {
      lengthKey = '';
      lengthBox.replaceChildren();
      return;
    }
    if (key !== lengthKey) {
      lengthKey = key;
      lengthControl = choice({
        name: `ym-len-${uid}`, label: m.t('your-model.readLength'), value: values.len,
        options: choices.map((c) => ({ value: c.seqLen, label: m.t(`your-model.length${c.kind[0].toUpperCase()}${c.kind.slice(1)}`, { n: int(c.n) }) })),
        onChange: (v) => set({ len: Number(v) }),
      });
      const type = scalingName(summary.settings[summary.lead].rope);
      lengthBox.replaceChildren(lengthControl.el, h('p', { class: 'control-hint' }, m.t('your-model.lengthHint', { type })));
    }
    lengthControl.set(values.len);
  }
  // The model and the paste box over the chart; the second model, a second look, under the first's text.
  slots.controls.append(pick(m.t('your-model.model'), modelSelect), lengthBox, pasteBox);

  /**
   * Shows a bad input's message, or clears it: as text (it may quote the pasted text), the
   * parser's or the API's own words marked as English inside the page's language.
   */
  function showError(err) {
    if (!err) {
      error.replaceChildren();
      return;
    }
    const kept = m.t('your-model.errorKept', { model: chosen(values.model).name });
    const MARK = '\u0001';
    const text = err.kind === 'empty' ? m.t('your-model.errorEmpty')
      : err.kind === 'size' ? m.t('your-model.errorSize', { n: int(err.length), max: int(MAX_PASTE) })
        : err.kind === 'json' ? m.t('your-model.errorJson', { message: MARK })
          : m.t('your-model.errorConfig', { name: err.name, message: MARK });
    const [before, after = ''] = text.split(MARK);
    // The API's messages end without a full stop: one is added before the next sentence.
    const stop = /[.!?]$/.test(err.message) || after.trim() ? '' : '.';
    error.replaceChildren(before, ...(text.includes(MARK) ? [h('span', { lang: 'en' }, err.message), `${after}${stop}`] : []), ` ${kept}`);
    pasteBox.open = true;
  }

  /** Reads the text in the box: on success it becomes the model shown; on failure nothing changes. */
  function tryPaste(text) {
    const parsed = parsePasted(text);
    if (parsed.error) return parsed.error;
    const result = readConfig(core, parsed.config);
    if (result.error) return result.error;
    pasted = { config: parsed.config, summary: result.summary, n: ++pastes };
    pastedOption.textContent = m.t('your-model.pastedName', { type: result.summary.modelType });
    if (!pastedOption.isConnected) modelSelect.prepend(pastedOption);
    return null;
  }
  function readPasted() {
    const err = tryPaste(area.value);
    showError(err);
    if (!err) set({ model: PASTED });
  }

  // A config in the address (#config=...) is read before the first drawing; if it does not read,
  // its text stays in the box with the message, and the atlas model is shown.
  const fromHash = pastedFromHash(location.hash);
  let hashError = null;
  if (fromHash) {
    area.value = fromHash;
    hashError = tryPaste(fromHash);
  }
  if (values.model === PASTED && !pasted) values.model = DEFAULT;

  // [FIGURES] ---------------------------------------------------------------------------------
  const narrow = globalThis.matchMedia?.('(max-width: 560px)').matches;
  const waveCaption = h('figcaption', {});
  const waveFigure = h('figure', { class: 'ym-figure ym-waves' }, waveCaption);
  const decade = (v) => (v >= 1e6 ? `10${String(Math.round(Math.log10(v))).replace(/\d/g, (d) => '⁰¹²³⁴⁵⁶⁷⁸⁹'[d])}` : int(v));
  const ladder = new LogPlot(waveFigure, {
    label: m.t('your-model.waveY'), width: narrow ? 360 : 560, height: narrow ? 300 : 320,
    xLabel: m.t('your-model.waveX'), yLabel: m.t('your-model.waveY'), formatX: int, formatY: decade,
  });
  const noPairs = h('p', { class: 'ym-no-pairs' });
  slots.figure.append(waveFigure, noPairs);

  const out = {
    turned: readout('turned', m.t('your-model.readTurned')),
    never: readout('never', m.t('your-model.readNever')),
    slowest: readout('slowest', m.t('your-model.readSlowest')),
    factor: readout('factor', m.t('your-model.readFactor')),
  };
  const says = h('div', { class: 'ym-says' });
  const layers = h('div', { class: 'ym-layers-box' });
  const firstTitle = h('h3', { hidden: true });
  const compareBox = h('div', { class: 'ym-compare' });
  const compareTable = h('div', { class: 'ym-compare-table' });
  // With a second model the two columns (each model's sentences and layers) stand side by side
  // where the page is wide enough, one under the other on a phone; the table puts their readouts
  // next to each other at any width.
  const pair = h('div', { class: 'ym-pair' }, h('div', { class: 'ym-first' }, firstTitle, says, layers), compareBox);
  slots.readouts.append(readoutRow(out.turned, out.never, out.slowest, out.factor),
    h('div', { class: 'controls ym-compare-pick' }, pick(m.t('your-model.compare'), vsSelect)), compareTable, pair);
  paragraphs(slots.notes, m, 'your-model.notes');

  // The fold: the scaling per pair, then what the reader filled in, left out and noted, then the
  // atlas entry's sources.
  const [howRead, howScaled, whatRead] = m.paras('your-model.deeper').map((p) => h('p', {}, p));
  const ratioCaption = h('figcaption', {}, m.t('your-model.ratioCaption'));
  const ratioFigure = h('figure', { class: 'ym-figure ym-ratio' }, ratioCaption);
  const ratioPlot = new LogPlot(ratioFigure, {
    label: m.t('your-model.ratioCaption'),  // until it is drawn (the fold opens): then its numbers width: narrow ? 360 : 560, height: narrow ? 240 : 260,
    xLabel: m.t('your-model.ratioX'), yLabel: m.t('your-model.ratioY'), formatX: int,
    formatY: (v) => (v >= 1 ? int(v) : m.fixed(v, Math.round(-Math.log10(v)))),
  });
  const ratioNone = h('p', {});
  const scoreCaption = h('figcaption', {});
  const scoreFigure = h('figure', { class: 'ym-figure ym-scores' }, scoreCaption);
  const kilo = (v) => (v >= 1000 && v % 1000 === 0 ? m.t('your-model.thousands', { n: int(v / 1000) }) : int(v));
  const scorePlot = new LinePlot(scoreFigure, {
    xLabel: m.t('your-model.scoreX'), yLabel: m.t('your-model.scoreY'), label: m.t('your-model.csvScores'),  // until drawn
    format: kilo, cursorX: int, cursorY: (v) => m.fixed(v, 2), keysHint: m.t('page.plotKeys'),
  });
  const readInfo = h('div', { class: 'ym-read' });
  const sourceInfo = h('div', { class: 'ym-source' });
  slots.deeper.append(howRead, howScaled, ratioFigure, ratioNone, scoreFigure, whatRead, readInfo, sourceInfo);

  // [DRAWING] ---------------------------------------------------------------------------------
  /** The layer strip of a model: one cell per layer, and a legend line per group. */
  function layerStrip(name, summary) {
    const groups = summary.groups.map((g) => groupLine(m, summary, g));
    const cells = summary.layerGroup.map((g, i) => h('span', {
      class: `ym-cell ${cellClass(summary.groups[g])}`, title: m.t('your-model.layerTitle', { i, what: groups[g] }),
    }));
    // Past 96 layers (a pasted config may have up to 4,096) the cells lose their gaps and shrink
    // below 2 px rather than widen the page.
    const strip = h('div', { class: `ym-strip${summary.numLayers > 96 ? ' dense' : ''}`, role: 'img',
      'aria-label': m.t('your-model.layersAlt', { last: summary.numLayers - 1, groups: groups.join('; ') }) }, cells);
    const legend = h('ul', { class: 'ym-legend' }, summary.groups.map((g, k) => h('li', {},
      h('span', { class: `ym-cell ym-swatch ${cellClass(g)}`, 'aria-hidden': 'true' }), groups[k])));
    return h('figure', { class: 'ym-figure ym-layers' },
      h('figcaption', {}, `${name}: ${m.t('your-model.layersCaption', { n: summary.numLayers })}`), strip, legend);
  }

  function drawLadder(name, summary, other) {
    const s = summary.settings[summary.lead];
    const o = other?.summary.settings[other.summary.lead];
    if (!s && !o) {
      waveFigure.hidden = true;
      return;
    }
    waveFigure.hidden = false;
    const series = [];
    const main = s ?? o;
    const pairsOf = (x) => Array.from({ length: x.pairs }, (_, i) => i);
    if (s) {
      const base = int(s.rope.base);
      if (s.rope.scaling) {
        series.push({ x: pairsOf(s), y: s.plainWavelengths, cls: 'b', label: m.t('your-model.legendPlain', { base }) });
        series.push({ x: pairsOf(s), y: s.wavelengths, cls: 'a', points: true,
          label: m.t('your-model.legendScaled', { type: scalingName(s.rope), s: factor(s.rope.factor) }) });
      } else {
        series.push({ x: pairsOf(s), y: s.wavelengths, cls: 'a', points: true, label: m.t('your-model.legendOnly', { base }) });
      }
      // A second base (Gemma 3's sliding layers): its own line.
      const second = summary.settings.find((x, i) => i !== summary.lead && x.rope.base !== s.rope.base);
      if (second) series.push({ x: pairsOf(second), y: second.wavelengths, cls: 'c', label: m.t('your-model.legendOther', { base: int(second.rope.base) }) });
    }
    if (o) series.push({ x: pairsOf(o), y: o.wavelengths, cls: 'd', label: m.t('your-model.legendCompare', { name: other.name }) });
    const { trained, context } = s ? summary : other.summary;
    const hlines = [];
    if (trained !== null && context !== null && trained !== context) {
      hlines.push({ y: context, cls: 'context', anchor: 'start', label: m.t('your-model.lineContext', { n: int(context) }) });
      hlines.push({ y: trained, cls: 'trained', anchor: 'start', label: m.t('your-model.lineTrained', { n: int(trained) }) });
    } else if (trained !== null || context !== null) {
      const n = trained ?? context;
      hlines.push({ y: n, cls: trained === null ? 'context' : 'trained', anchor: 'start',
        label: m.t(trained === null ? 'your-model.lineContext' : context === null ? 'your-model.lineTrained' : 'your-model.lineBoth', { n: int(n) }) });
    }
    const longest = Math.max(...series.map((x) => Math.max(...x.y)), trained ?? 0, context ?? 0);
    const pairs = Math.max(...series.map((x) => x.x.length));
    ladder.draw({
      xDomain: [-1, pairs], yDomain: [1, 10 ** Math.ceil(Math.log10(longest * 1.5))], xTicks: pairTicks(pairs, narrow ? 5 : 8), series, hlines,
    });
    waveCaption.textContent = m.t('your-model.waveCaption', { name: s ? name : other.name, pairs: main.pairs });
    const lines = hlines.length === 2 ? m.t('your-model.waveAltLines', { trained: int(trained), context: int(context) })
      : hlines.length ? m.t('your-model.waveAltLine', { n: int(trained ?? context) }) : '';
    ladder.svg.setAttribute('aria-label', m.t('your-model.waveAlt', {
      pairs: main.pairs, name: s ? name : other.name, shortest: int(Math.min(...main.wavelengths)), longest: int(Math.max(...main.wavelengths)),
      lines, turn: main.turnInContext ?? '—', never: main.never ?? '—', context: int(context ?? trained ?? 0),
    }));
  }

  /** The readouts of a model as text, '—' where it has none: the cards' and the table's. */
  function readoutTexts(summary) {
    const s = summary.settings[summary.lead];
    const dash = (v, f) => (v === null || v === undefined ? '—' : f(v));
    return {
      turned: s ? dash(s.turnedInTraining, (n) => m.t('your-model.ofPairs', { n, total: s.pairs })) : '—',
      never: s ? dash(s.never, String) : '—',
      slowest: s ? dash(s.slowestContext, sig) : '—',
      factor: s ? fixed4(s.rope.attentionFactor) : '—',
      trained: dash(summary.trained, int),
      context: dash(summary.context, int),
    };
  }

  /** The two models' readouts in one table: a row per readout, a column per model. */
  function drawCompareTable(first, second) {
    if (!second) {
      compareTable.replaceChildren();
      return;
    }
    const a = readoutTexts(first.summary);
    const b = readoutTexts(second.summary);
    const rows = [['turned', 'your-model.readTurned'], ['never', 'your-model.readNever'], ['slowest', 'your-model.readSlowest'],
      ['factor', 'your-model.readFactor'], ['trained', 'your-model.compareTrained'], ['context', 'your-model.compareContext']];
    compareTable.replaceChildren(h('table', { class: 'ym-table' },
      h('caption', {}, m.t('your-model.compareTitle')),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, m.t('your-model.compareWhat')),
        h('th', { scope: 'col' }, first.name), h('th', { scope: 'col' }, second.name))),
      h('tbody', {}, rows.map(([k, label]) => h('tr', { 'data-row': k }, h('th', { scope: 'row' }, m.t(label)),
        h('td', {}, a[k]), h('td', {}, b[k]))))));
  }

  function drawReadouts(summary) {
    const s = summary.settings[summary.lead];
    if (!s) {
      for (const card of Object.values(out)) card.set('—');
      return;
    }
    if (s.turnedInTraining === null) out.turned.set('—');
    else out.turned.set(m.t('your-model.ofPairs', { n: s.turnedInTraining, total: s.pairs }), s.turnedInTraining);
    if (s.never === null) out.never.set('—');
    else out.never.set(String(s.never), s.never);
    if (s.slowestContext === null) out.slowest.set('—');
    else out.slowest.set(sig(s.slowestContext), s.slowestContext);
    out.factor.set(fixed4(s.rope.attentionFactor), s.rope.attentionFactor);
  }

  function drawRatio(name, summary) {
    const s = summary.settings[summary.lead];
    const scaled = s && s.scaledPairs > 0;
    ratioFigure.hidden = !scaled;
    ratioNone.hidden = scaled || !s;
    if (!scaled) {
      ratioNone.textContent = m.t('your-model.ratioNone', { name });
      return;
    }
    const lo = Math.min(...s.ratio);
    const hi = Math.max(...s.ratio);
    const x = Array.from({ length: s.pairs }, (_, i) => i);
    ratioPlot.draw({
      xDomain: [-1, s.pairs], yDomain: [10 ** Math.floor(Math.log10(lo)), 10 ** Math.ceil(Math.log10(hi * 1.5))],
      xTicks: pairTicks(s.pairs, narrow ? 5 : 8), series: [{ x, y: s.ratio, cls: 'a', points: true }],
    });
    ratioPlot.svg.setAttribute('aria-label', m.t('your-model.ratioAlt', {
      pairs: s.pairs, name, first: sig(s.ratio[0]), last: sig(s.ratio[s.pairs - 1]), lastPair: s.pairs - 1, kept: s.pairs - s.scaledPairs,
    }));
  }

  /** The all-ones score against the distance, to the context; the training length marked. */
  function drawScores(name, summary) {
    const curve = allOnesScores(summary);
    scoreFigure.hidden = !curve;
    if (!curve) return;
    const { distances, scores } = curve;
    const end = distances[SCORE_SAMPLES];
    let lo = 0;
    let hi = 0;
    for (const v of scores) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    const pad = (hi - lo) * 0.05 || 1;
    const { trained } = summary;
    scorePlot.draw({
      xDomain: [0, end], yDomain: [lo - pad, hi + pad],
      series: [{ x: distances, y: scores, cls: 'a', points: true, cursor: true, label: name }],
      vlines: trained !== null && trained < end ? [{ x: trained, cls: 'trained', label: m.t('your-model.lineTrained', { n: int(trained) }) }] : [],
    });
    const s = summary.settings[summary.lead];
    const rest = summary.headDim - s.rope.rotaryDim;
    scoreCaption.textContent = m.t(rest ? 'your-model.scoreCaptionPartial' : 'your-model.scoreCaption', { end: int(end), rest });
    let low = 0;
    for (let k = 1; k < scores.length; k++) if (scores[k] < scores[low]) low = k;
    scorePlot.svg.setAttribute('aria-label', m.t('your-model.scoreAlt', {
      name, n: SCORE_SAMPLES + 1, end: int(end), s0: m.fixed(scores[0], 2), sEnd: m.fixed(scores[SCORE_SAMPLES], 2),
      low: m.fixed(scores[low], 2), at: int(distances[low]),
    }));
  }

  function drawRead(summary) {
    const pos = summary.positions;
    // The API's notes are English whatever the page's language: marked so, for screen readers.
    const list = (title, items, lang) => (items.length ? [h('h3', {}, title), h('ul', { class: 'ym-list', lang }, items.map((t) => h('li', {}, t)))] : []);
    const show = (v) => (typeof v === 'number' ? String(v) : JSON.stringify(v));
    const ignored = pos.ignored.map((e) => `${e.field}${e.looksPositional ? ' *' : ''}`);
    const divergences = pos.divergences.map((d) => (d.code === 'mla-softmax-scale'
      ? m.t('your-model.divergenceSoftmax', { hf: m.fixed(d.hf.rotatedScale, 6), original: m.fixed(d.original.rotatedScale, 6), agree: m.t(d.agree ? 'your-model.yes' : 'your-model.no') })
      : d.current && d.older ? m.t('your-model.divergenceFactor', { current: factor(d.current.factor), older: factor(d.older.factor) }) : d.message));
    readInfo.replaceChildren(
      ...list(m.t('your-model.defaultsTitle'), pos.defaults.map((d) => `${d.field} = ${show(d.value)} (${d.from})`)),
      ...list(m.t('your-model.ignoredTitle'), ignored.length ? [ignored.join(', '), ...(pos.ignored.some((e) => e.looksPositional) ? [m.t('your-model.ignoredMark')] : [])] : []),
      ...list(m.t('your-model.divergenceTitle'), divergences),
      ...list(m.t('your-model.notesTitle'), pos.notes.map((n) => n.message), 'en'),
    );
  }

  function drawSource(entry) {
    if (!entry) {
      sourceInfo.replaceChildren();
      return;
    }
    sourceInfo.replaceChildren(h('h3', {}, m.t('your-model.sourceTitle')),
      h('p', {}, m.t('your-model.status', { status: entry.status })),
      // The atlas's sources and notes are English data, marked so.
      h('ul', { class: 'ym-list ym-sources', lang: 'en' }, Object.entries(entry.sources).map(([k, v]) => h('li', {}, h('code', {}, k), ': ', v))),
      entry.notes ? h('p', { class: 'control-hint', lang: 'en' }, entry.notes) : null);
  }

  // What is drawn, by what it depends on: a change of the second model leaves the first model's
  // text and strip alone, and the fold is drawn only while open (or when it opens).
  const keyOf = (choice) => (choice === PASTED ? `${PASTED}#${pasted?.n}` : choice);
  const drawn = { main: '', other: '', ladder: '', fold: '', pair: '' };
  const fold = root.querySelector(':scope > details.deeper');
  let shown = null;  // { name, summary, entry } of the model drawn, for the CSV buttons and the fold

  function drawFold() {
    if (!fold?.open || drawn.fold === drawn.main) return;
    drawn.fold = drawn.main;
    drawRatio(shown.name, shown.summary);
    drawScores(shown.name, shown.summary);
    drawRead(shown.summary);
    drawSource(shown.entry);
  }
  fold?.addEventListener('toggle', drawFold);

  function render() {
    if (modelSelect.value !== values.model) modelSelect.value = values.model;
    if (vsSelect.value !== values.vs) vsSelect.value = values.vs;
    // The pasted config is kept in the address only while it is the model shown.
    const wanted = values.model === PASTED && pasted ? hashFor(pasted.config) : '';
    if (location.hash !== wanted && (wanted || location.hash.startsWith('#config='))) {
      history.replaceState(history.state, '', `${location.pathname}${location.search}${wanted}`);
    }
    const modelKey = keyOf(values.model);
    const mainKey = `${modelKey}@${values.len}`;
    const otherKey = values.vs !== NONE && values.vs !== values.model ? values.vs : '';
    const cur = chosen(values.model, values.len);
    const other = otherKey ? chosen(otherKey) : null;
    drawLength(cur.summary, modelKey);
    if (mainKey !== drawn.main) {
      drawn.main = mainKey;
      shown = cur;
      values.labState = labState(cur.summary);
      const hasPairs = cur.summary.lead >= 0;
      noPairs.hidden = hasPairs;
      const text = sentences(m, cur.name, cur.summary);
      if (!hasPairs) noPairs.textContent = text[0];
      says.replaceChildren(...(hasPairs ? text : text.slice(1)).map((t) => h('p', {}, t)));
      drawReadouts(cur.summary);
      layers.replaceChildren(layerStrip(cur.name, cur.summary));
    }
    if (otherKey !== drawn.other) {
      drawn.other = otherKey;
      compareBox.replaceChildren(...(other ? [h('h3', {}, other.name),
        ...sentences(m, other.name, other.summary).map((t) => h('p', {}, t)), layerStrip(other.name, other.summary)] : []));
    }
    if (`${mainKey}|${otherKey}` !== drawn.pair) {
      drawn.pair = `${mainKey}|${otherKey}`;
      firstTitle.hidden = !other;
      firstTitle.textContent = cur.name;
      pair.classList.toggle('two', Boolean(other));
      drawCompareTable(cur, other);
    }
    if (`${mainKey}|${otherKey}` !== drawn.ladder) {
      drawn.ladder = `${mainKey}|${otherKey}`;
      drawLadder(cur.name, cur.summary, other);
    }
    drawFold();
  }

  const set = setter(render);  // patch the values, redraw (timed), write the URL
  render();
  if (hashError) showError(hashError);
  // Every atlas model read while the page is idle: a choice in the select then only draws.
  whenIdleEach(ENTRIES.map((e) => () => atlasRead(e.id)), { fallback: 'frame' });

  return {
    tables: () => {
      const { summary } = shown;
      const s = summary.settings[summary.lead];
      const rows = s ? Array.from({ length: s.pairs }, (_, i) => [i, s.plain[i], s.scaled[i], s.ratio[i], s.plainWavelengths[i], s.wavelengths[i],
        summary.trained === null ? '' : summary.trained / s.plainWavelengths[i], summary.context === null ? '' : summary.context / s.wavelengths[i]]) : [];
      return [
        {
          name: 'pairs', label: m.t('your-model.csvPairs'),
          header: ['pair', 'theta', 'theta_scaled', 'ratio', 'wavelength', 'wavelength_scaled', 'turns_in_training_length', 'turns_in_context'],
          rows,
        },
        {
          name: 'scores', label: m.t('your-model.csvScores'),
          header: ['distance', 'score_all_ones'],
          get rows() {
            const curve = allOnesScores(summary);
            return curve ? Array.from(curve.distances, (d, k) => [d, curve.scores[k]]) : [];
          },
        },
        {
          name: 'layers', label: m.t('your-model.csvLayers'),
          header: ['layer', 'kind', 'attention', 'window', 'rotary_dim', 'base', 'rope_type', 'factor', 'attention_factor'],
          rows: summary.positions.layers.map((l) => [l.index, l.kind, l.attention, l.window ?? '', l.rope?.rotaryDim ?? '', l.rope?.base ?? '',
            l.rope?.ropeType ?? '', l.rope?.factor ?? '', l.rope?.attentionFactor ?? '']),
        },
      ];
    },
  };
}
