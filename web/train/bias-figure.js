// The trained T5 biases: one line per head, the bias a query adds to the score of a key d
// positions back, against d (the causal T5 bucket of −d, from core.t5Bucket). Without the core
// the buckets themselves are the axis. The longest distance seen in training is marked.
import { h } from '../kit/dom.js';
import { LinePlot } from '../kit/lineplot.js';
import { tickLabel } from '../kit/ticks.js';

const HEAD_CLASSES = ['a', 'b', 'c', 'head-3', 'head-4', 'head-5', 'head-6', 'head-7'];
const headClass = (k) => `head ${HEAD_CLASSES[k % HEAD_CLASSES.length]}`;

/**
 * The bias of every head at every distance 0..maxDistance: [{ head, x, y }]; with `core` null,
 * one point per bucket instead.
 */
export function biasCurves(core, bias, { maxDistance, buckets, t5MaxDistance }) {
  if (!core) {
    return Array.from({ length: bias.rows }, (_, hd) => ({
      head: hd, x: Array.from({ length: bias.cols }, (_, b) => b), y: Array.from(bias.values.subarray(hd * bias.cols, (hd + 1) * bias.cols)),
    }));
  }
  const rel = Int32Array.from({ length: maxDistance + 1 }, (_, d) => -d);  // key − query
  const bucket = core.t5Bucket(rel, { bidirectional: false, numBuckets: buckets, maxDistance: t5MaxDistance });
  return Array.from({ length: bias.rows }, (_, hd) => ({
    head: hd, x: Array.from(rel, (_, d) => d), y: Array.from(bucket, (b) => bias.values[hd * bias.cols + b]),
  }));
}

/**
 * The shortest causal distance that falls in the last bucket: every distance from it on shares
 * that bucket. Below t5MaxDistance: the log scale reaches bucket numBuckets exactly there, so the
 * last bucket holds the whole last (widest) step below it (32 buckets up to 128: from 113 on).
 */
export function lastBucketStart(core, { buckets, t5MaxDistance }) {
  const rel = Int32Array.from({ length: t5MaxDistance + 1 }, (_, d) => -d);
  const bucket = core.t5Bucket(rel, { bidirectional: false, numBuckets: buckets, maxDistance: t5MaxDistance });
  return bucket.indexOf(buckets - 1);
}

/** text: { caption, x, xBuckets, y, head(n), trained, alt(vars) } — the caller's catalog. */
export function biasFigure(m, text) {
  const caption = h('figcaption', {});
  const figure = h('figure', { class: 'train-fig train-bias' }, caption);
  const plot = new LinePlot(figure, {
    xLabel: text.x, yLabel: text.y, label: '', format: tickLabel(m),
    cursorY: (v) => m.fixed(v, 3), keysHint: m.t('page.plotKeys'),
  });
  return {
    el: figure,
    plot,
    caption,
    /** curves from biasCurves; trainedDistance: the longest key distance of a training sequence. */
    draw(curves, { byBucket, trainedDistance, captionText }) {
      const ys = curves.flatMap((c) => c.y);
      const lo = Math.min(0, ...ys);
      const hi = Math.max(0, ...ys);
      const pad = (hi - lo) * 0.08 || 0.1;
      const xMax = Math.max(...curves.map((c) => c.x.at(-1) ?? 0));
      plot.xLabel.textContent = byBucket ? text.xBuckets : text.x;
      plot.labels.x = plot.xLabel.textContent;
      plot.draw({
        xDomain: [0, xMax], yDomain: [lo - pad, hi + pad],
        series: curves.map((c) => ({ x: c.x, y: c.y, cls: headClass(c.head), points: c.head === 0, cursor: c.head === 0, label: text.head(c.head + 1) })),
        vlines: byBucket ? [] : [{ x: trainedDistance, cls: 'n', label: text.trained }],
      });
      caption.textContent = captionText;
      plot.svg.setAttribute('aria-label', text.alt({
        heads: curves.length, max: xMax, trained: trainedDistance,
        ends: curves.map((c) => `${text.head(c.head + 1)}: ${m.fixed(c.y[0], 2)} → ${m.fixed(c.y.at(-1), 2)}`).join(m.listSep + ' '),
      }));
    },
  };
}
