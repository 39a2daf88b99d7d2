// "Trained" panels for the steps that show seeded stand-ins: the learned step gets the learned
// family's trained position table, the relative-bias step the T5 family's trained biases, both
// from the reference run (task trainedTask(), seed 0) of the train step. Built the first time they
// are switched on: only then are the reference data and the train step's text fetched, so the
// other steps' first screens never wait for them. Each panel has its own Save PNG button (it
// appears after the page has added the others).
import { h } from '../kit/dom.js';
import { savePng } from '../kit/export.js';
import { biasCurves, biasFigure, lastBucketStart } from './bias-figure.js';
import { referenceTrained, trainedTask } from './reference.js';
import { limitOf, tableFigure } from './table-figure.js';

function shell(m, stepId, build) {
  const status = h('p', { class: 'tp-note' });
  const el = h('section', { class: 'tp-panel', hidden: true }, status);
  let built = null;
  return {
    el,
    async show(on) {
      el.hidden = !on;
      if (!on || built) return;
      built = (async () => {
        status.textContent = '…';
        try {
          await m.load('train');
          const figure = await build();
          const png = h('button', { type: 'button', class: 'button small figure-save', 'data-export': 'png',
            onClick: () => savePng([figure.el.querySelector('canvas.heatmap, svg.lineplot')], `${stepId}-trained.png`) }, m.t('page.savePng'));
          status.remove();
          el.append(figure.el, h('div', { class: 'figure-tools' }, png), figure.note);
          el.dataset.ready = 'true';
        } catch (e) {
          status.textContent = m.t('train.referenceFailed', { message: e.message });
        }
      })();
      await built;
    },
  };
}

/** Where the trained pieces come from, in words; the rows a training sequence reaches. */
function origin(m, data) {
  const config = data.tasks[trainedTask(data)].config;
  const longest = Math.max(...config.trainLengths);
  const ins = referenceTrained(data, trainedTask(data), 'none')?.inspections.find((x) => x.length === longest);
  return {
    config,
    source: m.t('train.learned.sourceReference', { task: m.t(`train.task.${trainedTask(data)}`), steps: m.fixed(config.steps, 0) }),
    trainedRows: ins?.rows ?? 0,
  };
}

/** The learned step's panel: the trained table as a heatmap. */
export function trainedTablePanel({ m, platform, stepId }) {
  return shell(m, stepId, async () => {
    const data = await platform.reference();
    const { source, trainedRows } = origin(m, data);
    const table = referenceTrained(data, trainedTask(data), 'learned')?.table;
    if (!table) throw new Error(m.t('train.learned.missing'));
    const t = (key, vars) => m.t(`train.learned.${key}`, vars);
    const fig = tableFigure({
      m, cls: 'tp-table', keysHint: m.t('train.tableKeys'), hint: t('hint'), axisX: t('axisDims'), axisY: t('axisPositions'),
      hover: (c) => t(c.row < trainedRows ? 'hover' : 'hoverUnseen', { pos: c.row, dim: c.col, value: m.fixed(c.value, 3) }),
    });
    const limit = limitOf(table.values);
    fig.draw({ ...table, limit, captionText: t('panelCaption', { source }),
      alt: t('trainedAlt', { rows: table.rows, cols: table.cols, seen: trainedRows, last: trainedRows - 1, limit: m.fixed(limit, 2) }) });
    fig.caption.prepend(h('span', { class: 'tp-badge' }, m.t('train.trainedBadge')));
    return { el: fig.el, note: h('p', { class: 'tp-note' }, t('note', { last: trainedRows - 1, rows: table.rows })) };
  });
}

/** The relative-bias step's panel: the trained T5 biases per head against distance. */
export function trainedBiasPanel({ m, core, platform, stepId }) {
  return shell(m, stepId, async () => {
    const data = await platform.reference();
    const { config, source, trainedRows } = origin(m, data);
    const bias = referenceTrained(data, trainedTask(data), 't5')?.bias;
    if (!bias) throw new Error(m.t('train.bias.missing'));
    const t = (key, vars) => m.t(`train.bias.${key}`, vars);
    const fig = biasFigure(m, {
      x: t('x'), xBuckets: t('xBuckets'), y: t('y'), head: (n) => m.t('train.head', { n }), trained: t('trained'), alt: (vars) => t('alt', vars),
    });
    // The longest test sequence's rows: the learned family's table has one row per position of it.
    const rows = referenceTrained(data, trainedTask(data), 'learned')?.table?.rows;
    const byBucket = !core || !rows;
    const curves = biasCurves(byBucket ? null : core, bias, { maxDistance: (rows ?? 1) - 1, buckets: config.t5Buckets, t5MaxDistance: config.t5MaxDistance });
    fig.draw(curves, { byBucket, trainedDistance: trainedRows - 1, captionText: t('panelCaption', { source }) });
    fig.caption.prepend(h('span', { class: 'tp-badge' }, m.t('train.trainedBadge')));
    return { el: fig.el, note: h('p', { class: 'tp-note' }, byBucket ? t('noWasm') : t('note', { seen: trainedRows - 1, buckets: config.t5Buckets, maxd: lastBucketStart(core, { buckets: config.t5Buckets, t5MaxDistance: config.t5MaxDistance }) })) };
  });
}
