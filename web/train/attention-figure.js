// The attention maps of one test example through one trained model: every layer (rows of
// tiles) and head (columns), each tile the softmax weights of every query (down) over every key
// (across), drawn as one heatmap with gaps between the tiles (kit/heatmap.js draws NaN as a
// gap). Under it the example's tokens, the answer the task asks for and what the model predicted.
import { h } from '../kit/dom.js';
import { Heatmap } from '../kit/heatmap.js';
import { divergingCss } from '../kit/palette.js';
import { tokenKind, tokenLabel } from './tokens.js';

const GAP = 1;  // cells between tiles

/** The tiled map of attention (layers × heads × rows × rows): { values, rows, cols, tile }. */
export function tileAttention(attention, layers, heads, rows) {
  const tile = rows + GAP;
  const height = layers * tile - GAP;
  const width = heads * tile - GAP;
  const values = new Float32Array(height * width).fill(NaN);
  for (let l = 0; l < layers; l++) {
    for (let hd = 0; hd < heads; hd++) {
      const from = (l * heads + hd) * rows * rows;
      for (let q = 0; q < rows; q++) {
        values.set(attention.subarray(from + q * rows, from + (q + 1) * rows), (l * tile + q) * width + hd * tile);
      }
    }
  }
  return { values, rows: height, cols: width, tile };
}

/** Which layer, head, query and key a cell of the tiled map is (null in a gap). */
export function tileCell(row, col, tile, rows) {
  const q = row % tile;
  const k = col % tile;
  if (q >= rows || k >= rows) return null;
  return { layer: Math.floor(row / tile), head: Math.floor(col / tile), query: q, key: k };
}

export function attentionFigure(m) {
  const keys = h('span', { id: 'train-attention-keys', class: 'sr-only' }, m.t('train.mapKeys'));
  const canvas = h('canvas', { class: 'heatmap train-attention-map', 'aria-describedby': keys.id });
  const heads = h('div', { class: 'train-tile-heads', 'aria-hidden': 'true' });
  const layers = h('div', { class: 'train-tile-layers', 'aria-hidden': 'true' });
  const hover = h('p', { class: 'hover-readout', 'aria-live': 'polite' }, m.t('train.mapHint'));
  const legendEl = h('div', { class: 'legend train-attention-legend' });
  const caption = h('figcaption', {});
  const tokens = h('ol', { class: 'train-tokens' });
  const verdict = h('p', { class: 'train-verdict' });
  const figure = h('figure', { class: 'train-fig train-attention' }, caption,
    h('div', { class: 'train-tiles' }, heads, layers, h('div', { class: 'train-tiles-canvas' }, canvas)), keys,
    legendEl, hover, tokens, verdict);
  attentionLegend(legendEl, m);
  let shown = null;
  const heatmap = new Heatmap(canvas, {
    limit: 1,
    onCell: (c) => {
      const at = c && shown ? tileCell(c.row, c.col, shown.tile, shown.n) : null;
      hover.textContent = at
        ? m.t('train.mapHover', {
          layer: at.layer + 1, head: at.head + 1, query: at.query, key: at.key,
          qtoken: tokenLabel(shown.tokens[at.query], shown.vocab), ktoken: tokenLabel(shown.tokens[at.key], shown.vocab),
          value: m.fixed(c.value, 2),
        })
        : m.t('train.mapHint');
    },
  });
  return {
    el: figure,
    canvas,
    /** inspection: { tokens, answerStart, predicted, rows, attention, length }; or null. */
    draw(inspection, { layers: L, heads: H, vocab, family, longest }) {
      if (!inspection) {
        shown = null;
        caption.textContent = m.t('train.mapNone');
        heatmap.draw(new Float32Array([NaN]), 1, 1);
        canvas.setAttribute('aria-label', m.t('train.mapNone'));
        tokens.replaceChildren();
        verdict.textContent = '';
        return null;
      }
      const n = inspection.rows;
      const tiled = tileAttention(inspection.attention, L, H, n);
      shown = { ...tiled, n, tokens: inspection.tokens, vocab };
      canvas.style.aspectRatio = `${tiled.cols} / ${tiled.rows}`;
      heatmap.draw(tiled.values, tiled.rows, tiled.cols);
      heads.replaceChildren(...Array.from({ length: H }, (_, k) => h('span', {}, m.t('train.head', { n: k + 1 }))));
      layers.replaceChildren(...Array.from({ length: L }, (_, k) => h('span', {}, m.t('train.layer', { n: k + 1 }))));
      const past = inspection.length > longest;
      caption.textContent = m.t(past ? 'train.mapCaptionPast' : 'train.mapCaptionTrain', { family, length: inspection.length, longest });
      // The tokens: what the model reads, the answer, and its prediction at each answer position.
      const { answerStart, predicted } = inspection;
      let wrong = 0;
      tokens.replaceChildren(...Array.from(inspection.tokens, (id, p) => {
        const answer = p >= answerStart;
        const guess = answer ? predicted[p - answerStart] : null;
        const miss = answer && guess !== id;
        if (miss) wrong++;
        return h('li', { class: `train-token ${tokenKind(id, vocab)}${answer ? ' answer' : ''}${miss ? ' miss' : ''}` },
          h('span', { class: 'train-token-pos' }, String(p)),
          h('span', { class: 'train-token-text' }, tokenLabel(id, vocab)),
          answer ? h('span', { class: 'train-token-guess' }, tokenLabel(guess, vocab)) : null);
      }));
      tokens.setAttribute('aria-label', m.t('train.tokensAlt', {
        input: Array.from(inspection.tokens.slice(0, answerStart), (id) => tokenLabel(id, vocab)).join(' '),
        answer: Array.from(inspection.tokens.slice(answerStart), (id) => tokenLabel(id, vocab)).join(' '),
        predicted: Array.from(predicted, (id) => tokenLabel(id, vocab)).join(' '),
      }));
      verdict.textContent = wrong
        ? m.t('train.verdictWrong', { wrong, of: predicted.length })
        : m.t('train.verdictRight', { of: predicted.length });
      verdict.classList.toggle('wrong', wrong > 0);
      canvas.setAttribute('aria-label', m.t('train.mapAlt', { family, length: inspection.length, layers: L, heads: H, n, wrong, of: predicted.length }));
      return { wrong };
    },
  };
}

/** A bar from 0 (no weight) to 1 (all of a query's weight on one key). */
export function attentionLegend(element, m) {
  const steps = 32;
  const bar = h('canvas', { class: 'legend-bar', width: steps, height: 1, 'aria-hidden': 'true' });
  const ctx = bar.getContext('2d');
  for (let i = 0; i < steps; i++) {
    ctx.fillStyle = divergingCss((i + 0.5) / steps, 1);
    ctx.fillRect(i, 0, 1, 1);
  }
  element.replaceChildren(bar, h('div', { class: 'legend-labels' }, h('span', {}, m.fixed(0, 0)), h('span', {}, m.fixed(0.5, 1)), h('span', {}, m.fixed(1, 0))));
}
