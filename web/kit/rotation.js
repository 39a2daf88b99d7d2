// One RoPE pair as a 2D picture: the unit circle, the rotated query and key as arrows, and the
// arc between them. Angles in radians; vectors drawn to scale (|v| <= 1.2 fits).
import { h, s } from './dom.js';
import { registerFigure } from './figures.js';
import { patch } from './svg-patch.js';
import { keptFont, textWidth } from './textfit.js';

const R = 46;   // pixels per unit
const C = 60;   // centre
const TITLE_ROOM = 116;  // the title's width at most: the drawing is 120 wide
const SPIRAL = 3.5;      // how far an unwound arc moves out per full turn (px)

/** An arrow from the centre to (x, y), as parts [tag, attributes] for svg-patch.js's patch. */
function arrow(x, y, cls) {
  const ex = C + x * R;
  const ey = C - y * R;
  const len = Math.hypot(ex - C, ey - C) || 1;
  const ux = (ex - C) / len;
  const uy = (ey - C) / len;
  const head = `${ex},${ey} ${ex - 8 * ux - 4 * uy},${ey - 8 * uy + 4 * ux} ${ex - 8 * ux + 4 * uy},${ey - 8 * uy - 4 * ux}`;
  return [['line', { x1: C, y1: C, x2: ex, y2: ey, class: `vec ${cls}` }], ['polygon', { points: head, class: `vec-head ${cls}` }]];
}

/** The angle in [−π, π) that turns a to b. */
const turn = (a, b) => ((b - a) % (2 * Math.PI) + 3 * Math.PI) % (2 * Math.PI) - Math.PI;

/** One pair's picture, empty: drawRotation draws into it. */
export function rotationDiagram() {
  return s('svg', { viewBox: '0 0 120 138', class: 'rotation', role: 'img' });
}

/**
 * Draws one pair into `svg` (from rotationDiagram), moving the shapes it has: the unit circle,
 * the rotated q and k as arrows and the arc between them, the title under it; with `original`,
 * the vector before turning (class rope-ghost, which the RoPE step's CSS dots), and with `names`, q's and k's names just beyond their tips,
 * pushed apart sideways when the arrows nearly coincide.
 * @param {{q:[number,number], k:[number,number], title:string, label:string,
 *   original?:[number,number], names?:{q:string, k:string}}} d
 */
export function drawRotation(svg, { q, k, title, label, original = null, names = null, sweep: unwound = null }) {
  const aq = Math.atan2(q[1], q[0]);
  const ak = Math.atan2(k[1], k[0]);
  const r = 0.45 * R;
  // The arc from q to k: the shorter way round, or (sweep, in radians) the whole turn the caller
  // knows, unwound: a spiral that moves out SPIRAL px per full turn, so −4 rad is drawn as −4 rad
  // and not as the +2.28 rad it equals on the circle (students read the wrapped arc as a mistake).
  const sweep = unwound ?? turn(aq, ak);
  const steps = Math.max(2, Math.ceil(Math.abs(sweep) / 0.08));
  const at = (t) => {
    const a = aq + t * sweep;
    const rr = r + SPIRAL * (t * Math.abs(sweep)) / (2 * Math.PI);
    return [C + rr * Math.cos(a), C - rr * Math.sin(a)];
  };
  const points = Array.from({ length: steps + 1 }, (_, n) => at(n / steps).map((v) => v.toFixed(2)).join(','));
  const arc = `M${points[0]} L${points.slice(1).join(' ')}`;
  // An arrowhead at the arc's end, so its direction (the sign of the turn) shows.
  const [ex, ey] = at(1);
  const [bx, by] = at(Math.max(0, 1 - 0.35 / Math.max(Math.abs(sweep), 0.35)));
  const len = Math.hypot(ex - bx, ey - by) || 1;
  const ux = (ex - bx) / len;
  const uy = (ey - by) / len;
  const arcHead = `${ex},${ey} ${ex - 5 * ux - 3 * uy},${ey - 5 * uy + 3 * ux} ${ex - 5 * ux + 3 * uy},${ey - 5 * uy - 3 * ux}`;
  const parts = [
    ['circle', { cx: C, cy: C, r: R, class: 'unit' }],
    ['line', { x1: C - R - 6, x2: C + R + 6, y1: C, y2: C, class: 'axis' }],
    ['line', { y1: C - R - 6, y2: C + R + 6, x1: C, x2: C, class: 'axis' }],
  ];
  if (original) parts.push(['line', { x1: C, y1: C, x2: C + original[0] * R, y2: C - original[1] * R, class: 'rope-ghost' }]);
  // A title wider than TITLE_ROOM ("pasangan 0: Δ = −4,000") is squeezed to it; its font can be
  // read once a first drawing has made it.
  const titleEl = svg.querySelector('.rotation-title');
  const font = titleEl && keptFont(titleEl);
  const fit = font && textWidth(font, title) > TITLE_ROOM ? { textLength: TITLE_ROOM, lengthAdjust: 'spacingAndGlyphs' } : {};
  const headParts = Math.abs(sweep) > 0.05 ? [['polygon', { points: arcHead, class: 'arc-head' }]] : [];
  parts.push(['path', { d: arc, class: 'arc' }], ...headParts, ...arrow(q[0], q[1], 'q'), ...arrow(k[0], k[1], 'k'),
    ['text', { x: C, y: 132, 'text-anchor': 'middle', class: 'rotation-title', ...fit }, title]);
  if (names) {
    // In the drawing's coordinates (y down), from the centre.
    const tq = [q[0] * R, -q[1] * R];
    const tk = [k[0] * R, -k[1] * R];
    const sq = Math.atan2(tq[1], tq[0]);
    const sk = Math.atan2(tk[1], tk[0]);
    const gap = turn(sq, sk);
    const away = gap >= 0 ? 1 : -1;
    const spread = Math.max(0, 0.45 - Math.abs(gap)) / 2;
    const place = (angle, len, text, cls) => {
      // Just beyond the tip; a label that would sit on the unit circle goes outside it.
      const rad = Math.abs(len + 9 - R) < 8 ? R + 8 : len + 9;
      return ['text', {
        x: C + rad * Math.cos(angle), y: C + rad * Math.sin(angle) + 3.5,
        'text-anchor': 'middle', class: `rope-vec-label ${cls}`, 'aria-hidden': 'true',
      }, text];
    };
    parts.push(place(sq - away * spread, Math.hypot(...tq), names.q, 'q'), place(sk + away * spread, Math.hypot(...tk), names.k, 'k'));
  }
  patch(svg, parts);
  if (svg.getAttribute('aria-label') !== label) svg.setAttribute('aria-label', label);
  // The first drawing made the title: now its font can be read, and the fit applied.
  if (!font && svg.isConnected && keptFont(svg.querySelector('.rotation-title'))) drawRotation(svg, { q, k, title, label, original, names, sweep: unwound });
}

/**
 * The box that holds a row of pair diagrams, one figure for Save PNG: its PNG shows the diagrams
 * the box holds at the moment of saving, and its tools go right under it.
 */
export function rotationGrid({ label }) {
  const grid = h('div', { class: 'rotations', role: 'group', 'aria-label': label });
  registerFigure(grid, { parts: () => [...grid.querySelectorAll('svg')], holder: grid });
  return grid;
}
