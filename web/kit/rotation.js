// One RoPE pair as a 2D picture: the unit circle, the rotated query and key as arrows, and the
// arc between them. Angles in radians; vectors drawn to scale (|v| <= 1.2 fits).
import { h, s } from './dom.js';
import { registerFigure } from './figures.js';

const R = 46;   // pixels per unit
const C = 60;   // centre

function arrow(x, y, cls) {
  const ex = C + x * R;
  const ey = C - y * R;
  const len = Math.hypot(ex - C, ey - C) || 1;
  const ux = (ex - C) / len;
  const uy = (ey - C) / len;
  const head = `${ex},${ey} ${ex - 8 * ux - 4 * uy},${ey - 8 * uy + 4 * ux} ${ex - 8 * ux + 4 * uy},${ey - 8 * uy - 4 * ux}`;
  return [s('line', { x1: C, y1: C, x2: ex, y2: ey, class: `vec ${cls}` }), s('polygon', { points: head, class: `vec-head ${cls}` })];
}

/** An SVG of one pair; `label` is its accessible description. */
export function rotationDiagram({ q, k, title, label }) {
  const aq = Math.atan2(q[1], q[0]);
  const ak = Math.atan2(k[1], k[0]);
  const r = 0.45 * R;
  const sweep = ((ak - aq) % (2 * Math.PI) + 3 * Math.PI) % (2 * Math.PI) - Math.PI;  // in (-pi, pi]
  const large = 0;
  const arc = `M${C + r * Math.cos(aq)},${C - r * Math.sin(aq)} A${r},${r} 0 ${large} ${sweep > 0 ? 0 : 1} ${C + r * Math.cos(aq + sweep)},${C - r * Math.sin(aq + sweep)}`;
  return s('svg', { viewBox: '0 0 120 138', class: 'rotation', role: 'img', 'aria-label': label },
    s('circle', { cx: C, cy: C, r: R, class: 'unit' }),
    s('line', { x1: C - R - 6, x2: C + R + 6, y1: C, y2: C, class: 'axis' }),
    s('line', { y1: C - R - 6, y2: C + R + 6, x1: C, x2: C, class: 'axis' }),
    s('path', { d: arc, class: 'arc' }),
    ...arrow(q[0], q[1], 'q'),
    ...arrow(k[0], k[1], 'k'),
    s('text', { x: C, y: 132, 'text-anchor': 'middle', class: 'rotation-title' }, title));
}

/**
 * The box that holds a row of pair diagrams, one figure for Save PNG: its PNG shows the diagrams
 * the box holds at the moment of saving (a redraw replaces them), and its tools go right under it.
 */
export function rotationGrid({ label }) {
  const grid = h('div', { class: 'rotations', role: 'group', 'aria-label': label });
  registerFigure(grid, { parts: () => [...grid.querySelectorAll('svg')], holder: grid });
  return grid;
}
