// Colour bars under heatmaps: a canvas one pixel high, stretched by CSS (.legend-bar), and the
// marks under it (.legend-labels). Colours from the diverging palette (palette.js).
import { h } from './dom.js';
import { symmetricMarks } from './format.js';
import { divergingCss } from './palette.js';

/** A bar of `steps` pixels, pixel k painted colourAt(k). Hidden from screen readers: the
 * marks and the figure's text say what it shows. */
export function colourBar(steps, colourAt) {
  const bar = h('canvas', { class: 'legend-bar', width: steps, height: 1, 'aria-hidden': 'true' });
  const ctx = bar.getContext('2d');
  for (let k = 0; k < steps; k++) {
    ctx.fillStyle = colourAt(k);
    ctx.fillRect(k, 0, 1, 1);
  }
  return bar;
}

/** A bar over the values from → to, linear, at the centre of each pixel, in the colours a map
 * with colour limit `limit` gives them: (−1, 1, 1) is a diverging bar, (0, 1, 1) its upper half. */
export function scaleBar(steps, from, to, limit) {
  return colourBar(steps, (k) => divergingCss(from + ((to - from) * (k + 0.5)) / steps, limit));
}

/** The marks under a bar, spread along it. */
export function legendLabels(marks) {
  return h('div', { class: 'legend-labels' }, ...marks.map((t) => h('span', {}, t)));
}

const drawnLegends = new WeakMap();  // element → the scale and marks its bar shows
/** Fills `element` with a horizontal colour bar for [-limit, limit] and its marks (DOM only, no
 * inline CSS); marks default to "−limit", "0", "+limit". */
export function legend(element, limit, marks = symmetricMarks(limit)) {
  // A figure redrawn with new data on the same scale keeps its bar: painting one is 64 fills.
  const key = JSON.stringify([limit, marks]);
  if (drawnLegends.get(element) === key && element.childElementCount) return;
  drawnLegends.set(element, key);
  element.replaceChildren(scaleBar(64, -limit, limit, limit), legendLabels(marks));
}
