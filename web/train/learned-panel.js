// The learned family's trained position table in the train step: the table as a heatmap beside
// the seeded stand-in the learned step shows (core.learned, same shape: N(0, 0.02²) from seed 0),
// then the cosine similarity of its rows and the rows' first two principal components
// (analyseTable of the trainer module), positions the training never reached told apart.
// Without WebAssembly only the trained heatmap can be drawn; the panel says why.
import { h } from '../kit/dom.js';
import { LinePlot } from '../kit/lineplot.js';
import { tickLabel } from '../kit/ticks.js';
import { limitOf, tableFigure } from './table-figure.js';

const STAND_IN_STD = 0.02;  // core.learned's default, as in the learned step

export function learnedPanel(m) {
  const t = (key, vars) => m.t(`train.learned.${key}`, vars);
  const trained = tableFigure({
    m, cls: 'train-table-trained', keysHint: m.t('train.tableKeys'), hint: t('hint'), axisX: t('axisDims'), axisY: t('axisPositions'),
    hover: (c) => t(c.row < state.trainedRows ? 'hover' : 'hoverUnseen', { pos: c.row, dim: c.col, value: m.fixed(c.value, 3) }),
  });
  const standIn = tableFigure({
    m, cls: 'train-table-standin', keysHint: m.t('train.tableKeys'), hint: t('hint'), axisX: t('axisDims'), axisY: t('axisPositions'),
    hover: (c) => t('hoverStandIn', { pos: c.row, dim: c.col, value: m.fixed(c.value, 3) }),
  });
  const similarity = tableFigure({
    m, cls: 'train-similarity', keysHint: m.t('train.tableKeys'), hint: t('hint'), axisX: t('axisPositions'), axisY: t('axisPositions'),
    hover: (c) => t('hoverSimilarity', { a: c.row, b: c.col, value: m.fixed(c.value, 2) }),
  });
  const pcaFig = h('figure', { class: 'train-fig train-pca' }, h('figcaption', {}, t('pcaCaption')));
  const pca = new LinePlot(pcaFig, {
    xLabel: t('pcaX'), yLabel: t('pcaY'), label: '', format: tickLabel(m),
    cursorX: (v) => m.fixed(v, 2), cursorY: (v) => m.fixed(v, 2), keysHint: m.t('page.plotKeys'),
  });
  const note = h('p', { class: 'train-note' });
  // The similarity map alone (square), the components under it at full width (readable labels).
  const analysisRow = h('div', { class: 'train-analysis' }, similarity.el, pcaFig);
  const tableRow = h('div', { class: 'figure-row train-pair' }, trained.el, standIn.el, h('div', { class: 'figure-row-tools' }));
  const el = h('section', { class: 'train-learned', 'aria-labelledby': 'train-learned-title' },
    h('h3', { id: 'train-learned-title' }, t('title')), note, tableRow, analysisRow);
  const state = { trainedRows: 0 };

  return {
    el,
    /**
     * table: { rows, cols, values } or null; trainedRows: positions a training sequence reaches;
     * source: who trained it (text); core: null without WebAssembly.
     */
    draw({ table, trainedRows, source, core }) {
      state.trainedRows = trainedRows;
      tableRow.hidden = !table;
      analysisRow.hidden = !table || !core;
      if (!table) {
        note.textContent = t('missing');
        return;
      }
      const { rows, cols, values } = table;
      const limit = limitOf(values);
      trained.draw({ values, rows, cols, limit, captionText: t('trainedCaption', { source }),
        alt: t('trainedAlt', { rows, cols, seen: trainedRows, last: trainedRows - 1, limit: m.fixed(limit, 2) }) });
      if (core) {
        const stand = core.learned(rows, cols, { maxPositions: rows, std: STAND_IN_STD });
        standIn.draw({ values: stand, rows, cols, limit: 3 * STAND_IN_STD, captionText: t('standInCaption', { rows, cols }),
          alt: t('standInAlt', { rows, cols, std: m.fixed(STAND_IN_STD, 2) }) });
      }
      standIn.el.hidden = !core;
      analysisRow.hidden = !core;
      note.textContent = core ? t('note', { last: trainedRows - 1, rows }) : t('noWasm');
    },
    /** The rows' similarity and principal components (analyseTable) of the table drawn last. */
    analyse(analysis, { rows, trainedRows }) {
      similarity.draw({ values: Float32Array.from(analysis.similarity), rows, cols: rows, limit: 1,
        captionText: t('similarityCaption'), alt: t('similarityAlt', { rows, seen: trainedRows }) });
      const pc = analysis.components;
      const xs = Array.from({ length: rows }, (_, r) => pc[2 * r]);
      const ys = Array.from({ length: rows }, (_, r) => pc[2 * r + 1]);
      const span = (a) => [Math.min(...a), Math.max(...a)];
      const pad = ([lo, hi]) => [lo - 0.08 * (hi - lo || 1), hi + 0.08 * (hi - lo || 1)];
      const seen = Math.min(trainedRows, rows);
      pca.draw({
        xDomain: pad(span(xs)), yDomain: pad(span(ys)),
        series: [
          { x: xs.slice(0, seen), y: ys.slice(0, seen), cls: 'a', points: true, cursor: true, label: t('pcaSeen', { last: seen - 1 }) },
          ...(seen < rows ? [{ x: xs.slice(seen - 1), y: ys.slice(seen - 1), cls: 'b', label: t('pcaUnseen', { from: seen }) }] : []),
        ],
        markers: [{ x: xs[0], y: ys[0], cls: 'a' }],
      });
      const [e1, e2] = analysis.explained;
      pca.svg.setAttribute('aria-label', t('pcaAlt', { rows, seen, first: m.fixed(100 * e1, 0), second: m.fixed(100 * e2, 0) }));
      pcaFig.querySelector('figcaption').textContent = t('pcaCaptionShare', { first: m.fixed(100 * e1, 0), second: m.fixed(100 * e2, 0) });
    },
  };
}
