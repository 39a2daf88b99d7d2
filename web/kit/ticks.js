// Round axis ticks and their labels, shared by every SVG figure of the kit.

/** The round step (1, 2, 2.5 or 5 × a power of ten) for about `count` ticks over `span`. */
function roundStep(span, count) {
  const raw = span / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  // A candidate less than one part in 10^9 below raw counts as reaching it: in binary, 5 × 1e-6
  // is a hair below 5e-6, and a span of exactly 5e-6 per tick took the next step up.
  return [1, 2, 2.5, 5, 10].map((f) => f * mag).find((v) => v >= raw * (1 - 1e-9)) ?? 10 * mag;
}

/** About `count` round tick values covering [lo, hi]. */
export function ticks(lo, hi, count = 6) {
  const step = roundStep(hi - lo || 1, count);
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return out;
}

/**
 * Tick labels in the page's number format (m.fixed) with as many decimals as each tick needs,
 * at least `min`: 0.25 → "0.25", 2.5 → "2.5", 30 → "30". ticks() steps by 1, 2, 2.5 or 5 times
 * a power of ten, so a label rounded to fewer decimals misstates its tick: the train step's
 * components plot labelled −2.5 and −1.5 as "−3" and "−2".
 */
export const tickLabel = (m, min = 0) => (v) => m.fixed(v, Math.max(min, (String(+v.toFixed(6)).split('.')[1] ?? '').length));

/**
 * v (> 0) rounded up to a multiple of the round step ticks(0, v, count) takes (count 5: the line
 * plots' y axes), or v itself when it lies within a billionth of a step above a multiple. That
 * is at most `count` steps, so ticks(0, top, count) keeps the step and ends on the top. A top for
 * an axis that stays put while v moves a little: a plot redrawn for every slider step keeps its
 * ticks instead of rescaling each time.
 */
export function roundedTop(v, count = 5) {
  const step = roundStep(v, count);
  // Written back from 12 significant digits (0.1 + 0.2 style errors dropped), and never below v.
  return Math.max(v, Number((Math.ceil(v / step - 1e-9) * step).toPrecision(12)));
}
