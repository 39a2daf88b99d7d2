// Look inside, side by side: one test example of the offset task past the training length
// through a relative family's model (RoPE) and an absolute one's (the learned table). Each map is
// the one head whose answer rows most often put their highest weight on the token the answer
// repeats, k places back; a dashed line marks those keys. Both maps share one colour scale (0 to
// 1, a query's whole weight on one key); keys after the query are masked and drawn as gaps. The
// caption under each map is worked out from the map itself (offsetHits), as is its text
// alternative; the arrow keys read every cell out.
import { h, s as svg } from '../kit/dom.js';
import { addExportOverlay, svgOverlay } from '../kit/export.js';
import { Heatmap } from '../kit/heatmap.js';
import { attentionLegend } from './attention-figure.js';
import { tokenLabel } from './tokens.js';

/**
 * For each layer and head of an inspection, how many answer rows put their highest weight on
 * the key k − 1 before the query (the token the next answer repeats, k places before it), and the
 * mean weight there: [{ layer, head, hits, rows, weight }]. Row q predicts token q + 1; the answer
 * rows are answerStart − 1 … rows − 1. Ties go to the earlier key, so a flat row counts as no hit.
 */
export function offsetHits({ attention, rows: n, answerStart }, layers, heads, k) {
  const out = [];
  for (let l = 0; l < layers; l++) {
    for (let hd = 0; hd < heads; hd++) {
      let hits = 0;
      let weight = 0;
      let count = 0;
      for (let q = Math.max(answerStart - 1, k - 1); q < n; q++) {
        const row = attention.subarray(((l * heads + hd) * n + q) * n, ((l * heads + hd) * n + q + 1) * n);
        let best = 0;
        for (let j = 1; j <= q; j++) if (row[j] > row[best]) best = j;
        if (best === q - (k - 1)) hits++;
        weight += row[q - (k - 1)];
        count++;
      }
      out.push({ layer: l, head: hd, hits, rows: count, weight: count ? weight / count : 0 });
    }
  }
  return out;
}

/** The head with the most hits (then the most weight there). */
export function bestHead(list) {
  return list.reduce((a, b) => (b.hits > a.hits || (b.hits === a.hits && b.weight > a.weight) ? b : a));
}

/** One head's map, keys after the query as gaps (NaN). */
function headMap(attention, n, heads, { layer, head }) {
  const from = (layer * heads + head) * n * n;
  const values = Float32Array.from(attention.subarray(from, from + n * n));
  for (let q = 0; q < n; q++) for (let j = q + 1; j < n; j++) values[q * n + j] = NaN;
  return values;
}

function panel(m, t, name) {
  const canvas = h('canvas', { class: 'heatmap train-compare-map', 'data-family': name });
  // The keys k back: a dashed line over the canvas, in cell units (the SVG stretches with it).
  const line = svg('line', { class: 'train-compare-diagonal', 'vector-effect': 'non-scaling-stroke' });
  const overlay = svg('svg', { class: 'train-compare-overlay', 'aria-hidden': 'true', preserveAspectRatio: 'none' }, line);
  const hover = h('p', { class: 'hover-readout', 'aria-live': 'polite' }, t('compare.hint'));
  const caption = h('figcaption', {});
  const figure = h('figure', { class: 'train-fig train-compare-panel', 'data-family': name }, caption,
    h('div', { class: 'train-compare-grid' },
      h('span', { class: 'train-compare-y', 'aria-hidden': 'true' }, t('compare.y')),
      h('div', { class: 'train-compare-box' }, canvas, overlay),
      h('span', { class: 'train-compare-x', 'aria-hidden': 'true' }, t('compare.x'))),
    hover);
  addExportOverlay(canvas, svgOverlay(overlay));  // Save PNG draws the dashed line too
  let shown = null;
  const heatmap = new Heatmap(canvas, {
    limit: 1,
    onCell: (c) => {
      if (!c || !shown || Number.isNaN(c.value)) {
        hover.textContent = t('compare.hint');
        return;
      }
      hover.textContent = t('compare.hover', {
        query: c.row, key: c.col,
        qtoken: tokenLabel(shown.tokens[c.row], shown.vocab), ktoken: tokenLabel(shown.tokens[c.col], shown.vocab),
        value: m.fixed(c.value, 2),
      });
    },
  });
  return {
    el: figure,
    canvas,
    caption,
    draw(inspection, { layers, heads, k, vocab, family }) {
      if (!inspection) {
        shown = null;
        figure.hidden = true;
        return null;
      }
      figure.hidden = false;
      const n = inspection.rows;
      const best = bestHead(offsetHits(inspection, layers, heads, k));
      shown = { tokens: inspection.tokens, vocab };
      canvas.style.aspectRatio = `${n} / ${n}`;
      heatmap.draw(headMap(inspection.attention, n, heads, best), n, n);
      overlay.setAttribute('viewBox', `0 0 ${n} ${n}`);
      const a = Math.max(inspection.answerStart - 1, k - 1);
      for (const [key, v] of Object.entries({ x1: a - (k - 1) + 0.5, y1: a + 0.5, x2: n - k + 0.5, y2: n - 0.5 })) line.setAttribute(key, v);
      const wrong = Array.from(inspection.predicted).filter((p, i) => p !== inspection.tokens[inspection.answerStart + i]).length;
      const vars = { family, layer: best.layer + 1, head: best.head + 1, hits: best.hits, rows: best.rows, k,
        weight: m.fixed(best.weight, 2), right: inspection.predicted.length - wrong, of: inspection.predicted.length };
      caption.textContent = t('compare.caption', vars);
      canvas.setAttribute('aria-label', t('compare.alt', { ...vars, n }));
      return { ...best, wrong };
    },
  };
}

/**
 * @param {object} m the page's messages; t: the train step's keys.
 * families: [relative, absolute] family ids, drawn left and right (stacked on a phone).
 */
export function compareFigure(m, t, families = ['rope', 'learned']) {
  const panels = families.map((f) => panel(m, t, f));
  const intro = h('p', { class: 'train-note' });
  const verdict = h('p', { class: 'train-note train-compare-verdict' });
  const scale = h('div', { class: 'legend train-compare-scale' });
  attentionLegend(scale, m);
  const legend = h('div', { class: 'train-compare-legend' }, scale, h('p', { class: 'train-note' }, t('compare.legend')));
  const el = h('section', { class: 'train-compare', 'aria-labelledby': 'train-compare-title' },
    h('h3', { id: 'train-compare-title' }, t('compare.title')), intro,
    // A .figure-row: the page puts both maps' Save PNG buttons together under them (downloads.js).
    h('div', { class: 'train-compare-pair figure-row' }, ...panels.map((p) => p.el), h('div', { class: 'figure-row-tools' })),
    legend, verdict);
  return {
    el,
    families,
    panels,
    /**
     * inspections: one per family (or null); o: { layers, heads, k, vocab, names (family → name),
     * length, longest }. Hides the section when neither family has a map.
     */
    draw(inspections, { layers, heads, k, vocab, names, length, longest }) {
      el.hidden = inspections.every((x) => !x);
      if (el.hidden) return;
      intro.textContent = t('compare.intro', { length, longest, k });
      const got = panels.map((p, i) => p.draw(inspections[i], { layers, heads, k, vocab, family: names[i] }));
      verdict.textContent = got.every(Boolean)
        ? t('compare.verdict', { a: names[0], b: names[1], hitsA: got[0].hits, hitsB: got[1].hits, rows: got[0].rows, k, length })
        : '';
    },
  };
}
