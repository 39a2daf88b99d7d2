// Room for labels in a drawing: how wide a text will be, so a plot can size its margins to its
// tick labels and fit a long axis title to its axis. On a phone the kit sets SVG text larger
// (styles.css), and a fixed margin cut "0.0001" or "0.025" short or let the title run into the
// ticks. A canvas measures in the font the page's CSS gives an SVG text element; an SVG text's
// CSS px are the drawing's own units, so the width comes out in the drawing's units (up to
// hinting, a fraction of a unit). No layout of the page is forced, only a style pass when the
// fonts are read.
import { s } from './dom.js';

// The box a browser gives a line of text reaches this far above and below its baseline, in ems,
// in DejaVu Sans, the sans-serif Linux falls back to (its hhea ascent 0.928 and descent 0.236);
// Segoe UI and Noto Sans have taller boxes, about 1.07 em above. Placing by these numbers keeps
// the ink inside in all of them: digits and unaccented letters stay under 0.76 em above the
// baseline and 0.21 em below it; accented capitals (Å, Й) reach 0.93 em.
const ASCENT = 0.93;
const DESCENT = 0.24;

let ctx = null;
let ctxFont = '';  // the font last given to ctx

/**
 * The CSS font of `el`, as a canvas takes it, with its size in px; null where there is no
 * computed style (an element not in the document, or no DOM, as in Node).
 * @param {Element} el
 * @returns {{font:string, size:number}|null}
 */
export function fontOf(el) {
  const cs = el.isConnected ? globalThis.getComputedStyle?.(el) : null;
  const size = cs ? parseFloat(cs.fontSize) : NaN;
  if (!(size > 0)) return null;
  return { font: `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`, size };
}

/** The width of `text` set in `font` (from fontOf), in that font's px. */
export function textWidth(font, text) {
  // An OffscreenCanvas where there is one: before a document canvas measures text, WebKit brings
  // the whole document's style up to date, so after any text in the page changes, every
  // measurement costs a style pass (forty times the cost: docs/benchmarks.md). A
  // main-thread OffscreenCanvas uses the document's fonts, so the widths are the same.
  ctx ??= (globalThis.OffscreenCanvas ? new OffscreenCanvas(1, 1) : globalThis.document?.createElement('canvas'))?.getContext('2d') ?? null;
  if (!ctx) return 0;
  if (ctxFont !== font.font) {
    ctx.font = font.font;
    ctxFont = font.font;
  }
  return ctx.measureText(text).width;
}

/**
 * A reader of the fonts `svg`'s CSS gives its tick labels (class tick) and axis titles (class
 * axis-label), measured on two texts it adds to `svg` that are never shown: the shown title may
 * carry a size of its own (leftMargin's). They are read again only when the window's width
 * changes (the kit's CSS sizes SVG text by width alone): getComputedStyle on every redraw would
 * cost a style pass in the middle of a change.
 * @param {SVGSVGElement} svg
 * @returns {() => ({tick:{font:string,size:number}, title:{font:string,size:number}}|null)}
 */
export function plotFonts(svg) {
  const tick = s('text', { class: 'tick' });
  const title = s('text', { class: 'axis-label' });
  svg.append(s('g', { display: 'none', 'aria-hidden': 'true' }, tick, title));
  let kept = null;
  let width = NaN;
  return () => {
    if (kept && width === globalThis.innerWidth) return kept;
    const t = fontOf(tick);
    const a = fontOf(title);
    kept = t && a ? { tick: t, title: a } : null;
    width = globalThis.innerWidth;
    return kept;
  };
}

/** A plot's margin before anything is measured: the axis line at `min`, the y title at x = 14 in its CSS size. */
export const firstMargin = (min) => ({ left: min, x: 14, size: null });

/**
 * A vertical axis title (rotated a quarter turn, read from below) and the left margin it and
 * the tick labels need: the title's baseline `x`, its font size (smaller than the CSS one when
 * the title is longer than the axis, or null when the CSS size fits), and `left`, where the axis
 * line goes: the widest tick label ends `gap` before it. At least `min`, so a plot whose labels
 * fit keeps its drawing; with `keep`, at least `was.left` too: a margin that followed each
 * drawing's labels would shift the whole plot sideways while a reader moves a slider. Returns
 * `was` itself when nothing moved, so a plot lays out its titles only when it must.
 * @param {{left:number, x:number, size:number|null}} was the plot's margin now
 * @param {{tick:{font:string,size:number}, title:{font:string,size:number}}|null} fonts from plotFonts
 * @param {{ticks:string[], title:string, axis:number, min:number, gap:number, keep:boolean}} d
 *   ticks: the tick labels; axis: the axis's length in the drawing's units; min: the margin the
 *   plot uses when its labels fit; gap: from a tick label's end to the axis line
 */
export function leftMargin(was, fonts, { ticks, title, axis, min, gap, keep }) {
  let m = firstMargin(min);
  if (fonts) {
    const long = textWidth(fonts.title, title);
    const size = long > axis ? (fonts.title.size * axis) / long : fonts.title.size;
    const x = Math.max(14, Math.ceil(ASCENT * size));
    let widest = 0;
    for (const t of ticks) widest = Math.max(widest, textWidth(fonts.tick, t));
    m = { left: Math.max(min, Math.ceil(x + DESCENT * size + 4 + widest + gap)), x, size: size < fonts.title.size ? size : null };
  }
  if (keep) m.left = Math.max(m.left, was.left);
  return m.left === was.left && m.x === was.x && m.size === was.size ? was : m;
}

/** Puts a plot's y title `el` where `margin` (leftMargin's) says, at its size, centred on `mid`. */
export function placeYTitle(el, { x, size }, mid) {
  el.setAttribute('x', x);
  el.setAttribute('y', mid);
  el.setAttribute('transform', `rotate(-90 ${x} ${mid})`);
  el.style.fontSize = size ? `${size.toFixed(2)}px` : '';
}

/**
 * A horizontal axis's ticks as parts for svg-patch.js's patch: a mark under the axis line at
 * `bottom` for each x in xs, and its label where tickLabelsX puts it (or none), its baseline
 * `tickY` below the axis.
 */
export function xTickParts(font, xs, texts, start, end, bottom, tickY = 17) {
  const at = tickLabelsX(font, xs, texts, start, end);
  const parts = [];
  xs.forEach((x, k) => {
    parts.push(['line', { x1: x, x2: x, y1: bottom, y2: bottom + 4, class: 'tick-mark' }]);
    if (at[k] !== null) parts.push(['text', { x: at[k], y: bottom + tickY, 'text-anchor': 'middle', class: 'tick' }, texts[k]]);
  });
  return parts;
}

const keptFonts = new WeakMap();  // element → { width: the window's width when read, font }

/**
 * fontOf(el), kept for el until the window's width changes: for a text whose size nothing but
 * the page's CSS sets (not one that leftMargin resizes).
 */
export function keptFont(el) {
  const kept = keptFonts.get(el);
  if (kept && kept.width === globalThis.innerWidth) return kept.font;
  const font = fontOf(el);
  if (font) keptFonts.set(el, { width: globalThis.innerWidth, font });
  return font;
}

/**
 * Where the labels of the ticks at xs go on a horizontal axis: centred on their tick, moved
 * right where that would start before `start` (the y axis line; the y labels end left of it) or
 * left where it would run past `end` (the drawing's edge), and left out where one would come
 * within `gap` of the nearest label kept to its right (walking from the right, so the axis's last
 * value keeps its label). A label wider than end − start is left out. Without a font (fontOf's
 * null) every label stays centred on its tick.
 * @param {{font:string,size:number}|null} font
 * @param {number[]} xs the ticks, left to right
 * @param {string[]} texts their labels
 * @param {number} start
 * @param {number} end
 * @param {number} gap the least room between two labels
 * @returns {(number|null)[]} each label's centre, null for one left out
 */
function tickLabelsX(font, xs, texts, start, end, gap = 6) {
  if (!font) return [...xs];
  const out = new Array(xs.length).fill(null);
  let room = end;  // the labels to the right start here
  for (let k = xs.length - 1; k >= 0; k--) {
    const half = textWidth(font, texts[k]) / 2;
    const x = Math.max(start + half, Math.min(xs[k], end - half));
    if (x + half > room) continue;
    out[k] = x;
    room = x - half - gap;
  }
  return out;
}
