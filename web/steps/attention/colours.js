// The attention map's colours: the lookup table, the top of the scale, each cell's colour (with
// the causal mask's bins masked) and the colour bar with its labels.
import { h } from '../../kit/dom.js';
import { DIVERGING_LEVELS, divergingCss, divergingTable, rgbWord } from '../../kit/palette.js';

const COLOURS = divergingTable();
export const ZERO = COLOURS[(DIVERGING_LEVELS - 1) / 2];

// Decimals that show a positive number with about two significant digits.
export const digitsFor = (v) => (v > 0 ? Math.min(6, Math.max(1, 1 - Math.floor(Math.log10(v)))) : 2);

/**
 * Top of the colour scale: the 99th percentile of |cell| (from a 1024-bin histogram, one pass),
 * so a few very large cells (the first rows of a causal map put all their weight on one or two
 * keys) do not wash out the rest; cells above it are drawn at full colour.
 */
export function scaleTop(cells) {
  let max = 0;
  for (let x = 0; x < cells.length; x++) max = Math.max(max, Math.abs(cells[x]));
  if (!(max > 0)) return 1e-6;
  const bins = new Uint32Array(1024);
  for (let x = 0; x < cells.length; x++) bins[Math.min(1023, Math.floor((Math.abs(cells[x]) / max) * 1024))]++;
  let seen = 0;
  const want = 0.99 * cells.length;
  for (let k = 0; k < 1024; k++) {
    seen += bins[k];
    if (seen >= want) return Math.max(1e-6, (max * (k + 1)) / 1024);
  }
  return max;
}

/**
 * The map's colours: each cell at sign(v)·sqrt(min(|v|/limit, 1)) on the [−1, 1] scale, looked
 * up in the colour table (a square-root scale keeps small weights visible next to the peaks);
 * with the causal mask a bin whose keys all come after its row's query is masked (colour
 * `masked`), not a probability of 0. Written into `px` (every element), a new array by default.
 */
export function cellPixels(cells, limit, { rows, edges }, causal, masked, px = new Uint32Array(cells.length)) {
  const C = edges.length - 1;
  const half = (DIVERGING_LEVELS - 1) / 2;
  for (let r = 0; r < rows.length; r++) {
    let seen = C;  // bins with a key at or before the query
    if (causal) for (seen = 0; seen < C && edges[seen] <= rows[r];) seen++;
    const at = r * C;
    for (let c = 0; c < seen; c++) {
      const v = cells[at + c];
      // Math.sign, not a branch on v < 0: a probability map never takes such a branch, and the
      // first difference map to take it sent Chromium's optimised loop back to the interpreter
      // for the rest of its 65,536 cells (ten times slower, once).
      px[at + c] = COLOURS[Math.round(Math.sign(v) * Math.sqrt(Math.min(Math.abs(v) / limit, 1)) * half + half)];
    }
    px.fill(masked, at + seen, at + C);
  }
  return px;
}

/** '#rrggbb' as an RGBA word, or null for anything else. */
export function cssWord(text) {
  const hex = /^#([0-9a-f]{6})$/i.exec(text.trim());
  if (!hex) return null;
  const v = parseInt(hex[1], 16);
  return rgbWord([v >> 16, (v >> 8) & 255, v & 255]);
}

// Colour bar on the same square-root scale as the map: 0 → limit for probabilities (white to
// red), −limit → +limit for differences; the middle mark sits where a quarter of the limit is.
// The two bars are painted once; a redraw only relabels them.
const bars = new Map();
function colourBar(diverging) {
  if (bars.has(diverging)) return bars.get(diverging);
  const steps = 64;
  const bar = document.createElement('canvas');
  bar.width = steps;
  bar.height = 1;
  bar.className = 'legend-bar';
  bar.setAttribute('aria-hidden', 'true');
  const ctx = bar.getContext('2d');
  const lo = diverging ? -1 : 0;
  for (let s = 0; s < steps; s++) {
    ctx.fillStyle = divergingCss(lo + ((1 - lo) * (s + 0.5)) / steps, 1);
    ctx.fillRect(s, 0, 1, 1);
  }
  bars.set(diverging, bar);
  return bar;
}

export function drawLegend(el, limit, diverging, m) {
  const d = digitsFor(limit);
  const marks = diverging
    ? [`−${m.fixed(limit, d)}`, '0', `+${m.fixed(limit, d)}`]
    : ['0', m.fixed(limit / 4, d + 1), `≥ ${m.fixed(limit, d)}`];
  el.replaceChildren(colourBar(diverging), h('div', { class: 'legend-labels' }, ...marks.map((t) => h('span', {}, t))),
    h('p', { class: 'legend-note' }, m.t(diverging ? 'attention.legendDiff' : 'attention.legendProb')));
}
