// Heatmap: draws a row-major Float32Array onto a canvas at one pixel per cell, which the
// browser scales to the canvas's box without smoothing (image-rendering: pixelated, set here on
// the canvas), so cells stay crisp on high-DPI screens; with a legend.
// Two marks: the hover cursor (reported through onCell) and the selected cell (set by a click,
// by the arrow keys when the canvas has focus, or by the step through select()). The keys move
// the cursor too, so onCell reports every cell they reach: the step shows it in a polite live
// region, which is how a screen reader hears position, dimension and value.
// The canvas is focusable with role=application, so a screen reader passes the arrow keys on.
// A finger or pen has no hover: pressing puts the cursor on the cell under it and dragging
// (the canvas captures the pointer) moves it; lifting leaves it there, to be read, until the
// focus leaves. Only a mouse clears it by leaving the canvas. The canvas takes no panning
// (touch-action in styles.css), so the page holds still under a dragged cursor.
// A NaN cell is a gap: drawn transparent, so the card shows through (maps laid side by side in
// one canvas, with gaps between them).
// The colour bar under a heatmap lives with the bars (colourbar.js), so a step that draws one
// without a heatmap (order) does not load this file on its first screen.
export { legend } from './colourbar.js';
import { h } from './dom.js';
import { addExportOverlay } from './export.js';
import { registerFigure } from './figures.js';
import { DIVERGING_LEVELS, divergingRgb, divergingTable } from './palette.js';

/**
 * The colour of every cell as draw() paints it: one RGBA word per cell in ImageData's byte order,
 * on the diverging scale of ±limit; NaN (a gap) transparent. A figure that shows the same map
 * again can keep these and pass them to draw() instead of colouring every cell anew.
 */

export function cellColours(values, limit) {
  const px = new Uint32Array(values.length);
  // Maps of small integers (indices, buckets) repeat a few values over many cells: their
  // colours are worked out once per value and copied. Other values go through the palette.
  const offset = Math.ceil(limit);
  const lut = new Uint32Array(2 * offset + 1);
  const known = new Uint8Array(2 * offset + 1);
  const rgba = new Uint8ClampedArray(4);  // the same rounding as writing into ImageData
  const word = new Uint32Array(rgba.buffer);
  const colour = (v) => {
    divergingRgb(v, limit, rgba, 0);
    rgba[3] = 255;
    return word[0];
  };
  for (let i = 0; i < values.length; i++) {
    if (Number.isNaN(values[i])) continue;  // 0: transparent
    const at = values[i] + offset;
    if (Number.isInteger(at) && at >= 0 && at < lut.length) {
      if (!known[at]) {
        lut[at] = colour(values[i]);
        known[at] = 1;
      }
      px[i] = lut[at];
    } else {
      px[i] = colour(values[i]);
    }
  }
  return px;
}

/**
 * cellColours through a lookup table of the scale (palette.js divergingTable): one rounding and
 * a lookup per cell instead of an interpolation, for maps of many distinct values. The learned
 * step's 1,536 × 64 table took ~22 ms with cellColours in V8 and 2–4 ms this way. A channel is
 * within 1 of cellColours' (tests/js/heatmap-lookup.test.js).
 */
export function cellColoursLookedUp(values, limit) {
  const lookup = divergingTable();
  const half = (DIVERGING_LEVELS - 1) / 2;
  const px = new Uint32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) continue;  // 0: transparent
    const t = limit > 0 ? v / limit : 0;
    px[i] = lookup[Math.round((t < -1 ? -1 : t > 1 ? 1 : t) * half + half)];
  }
  return px;
}

// The canvases (the one on the page and the kept pictures) stay in main memory rather than on
// the GPU: willReadFrequently is only a hint, but Chromium, Firefox and WebKit (since 2024)
// honour it by turning acceleration off. In WebKitGTK a GPU canvas sometimes made putImageData,
// clearRect or drawImage wait for the previous frame (docs/benchmarks.md); maps this small (the
// attention map: 256 × 256 cells) are cheap to draw on the CPU. getContext takes options on its first call only: every call passes them.
const CPU = { willReadFrequently: true };
const SVG_NS = 'http://www.w3.org/2000/svg';
const OUTLINE = [2.5, 1.25];  // CSS px: the selection's line, the cursor's

/** The colours as an ImageData over the same memory (no copy): one RGBA word per cell. */
const imageOf = (colours, cols, rows) => new ImageData(new Uint8ClampedArray(colours.buffer, colours.byteOffset, colours.length * 4), cols, rows);

export class Heatmap {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {{limit?: number, onCell?: (cell: {row:number, col:number, value:number}|null) => void}} [options]
   */
  /**
   * dragSelects: a finger or pen that drags over the map selects the cell it lifts from (onSelect),
   * as a tap does, so a reader on a phone can slide to a cell too small to hit and let go there.
   */
  constructor(canvas, { limit = 1, onCell = () => {}, onSelect = null, dragSelects = false } = {}) {
    this.canvas = canvas;
    registerFigure(canvas);
    this.limit = limit;
    this.onCell = onCell;
    this.onSelect = onSelect;
    this.cursor = null;
    this.selected = null;
    this.keptSources = new WeakMap();  // pixels drawn with kept → their own picture
    canvas.style.imageRendering = 'pixelated';  // one pixel per cell, scaled up without smoothing
    canvas.tabIndex = 0;
    canvas.setAttribute('role', 'application');
    canvas.addEventListener('pointerdown', (e) => this.#press(e));
    canvas.addEventListener('pointermove', (e) => this.#pointer(e));
    if (dragSelects) {
      canvas.addEventListener('pointerup', (e) => {
        if (e.pointerType === 'mouse' || !e.isPrimary || !this.cursor || !this.onSelect) return;
        this.onSelect(this.cursor);
        // A tap's click follows: the cell is chosen already, and the step may have moved the
        // map a few pixels since (its formula above changed), so the click would pick the row
        // next to it.
        this.releasedAt = e.timeStamp;
      });
    }
    canvas.addEventListener('pointerleave', (e) => { if (e.pointerType === 'mouse') this.#setCursor(null); });
    canvas.addEventListener('click', (e) => {
      if (this.releasedAt !== undefined && e.timeStamp - this.releasedAt < 1000) {
        this.releasedAt = undefined;
        return;
      }
      const cell = this.#cellAt(e);
      if (cell && this.onSelect) this.onSelect(cell);
    });
    canvas.addEventListener('keydown', (e) => this.#key(e));
    canvas.addEventListener('blur', () => this.#setCursor(null));
    // The selected cell and the cursor are outlined in an SVG laid over the canvas, not painted
    // into it, so moving them never touches the canvas. In Firefox with software WebRender (the
    // test machine has no GPU), the first drawing call into a canvas after a frame sometimes waited
    // several milliseconds, whatever the call (most likely waiting for the compositor to let go of the last
    // picture). The canvas is written only by draw(); a saved PNG gets the outlines painted over
    // the map.
    this.marks = document.createElementNS(SVG_NS, 'svg');
    this.marks.setAttribute('class', 'heatmap-marks');
    this.marks.setAttribute('aria-hidden', 'true');
    this.outlines = ['selected', 'cursor'].map((kind) => ['dark', 'light'].map((tone) => {
      const r = document.createElementNS(SVG_NS, 'rect');
      r.setAttribute('class', `heatmap-mark ${kind} ${tone}`);
      r.setAttribute('display', 'none');
      this.marks.append(r);
      return r;
    }));
    // The observer keeps the canvas's CSS size, so placing the outlines never forces a layout
    // just to read it. A canvas hidden after it was laid out (its step left, its figure folded
    // away) keeps that size.
    this.size = null;
    new ResizeObserver(([entry]) => {
      const { width, height } = entry.contentRect;
      if (!(width > 0)) return;
      this.size = { width, height };
      this.#wrap();
      this.marks.style.width = `${width}px`;
      this.marks.style.height = `${height}px`;
      this.marks.setAttribute('viewBox', `0 0 ${width} ${height}`);
      this.#placeMarks();
    }).observe(canvas);
    this.#wrap();
    addExportOverlay(canvas, (ctx, width, height) => {
      for (const { x, y, w, h, line } of this.#outlines(width, height).filter(Boolean)) {
        ctx.lineWidth = line;
        ctx.strokeStyle = '#111';
        ctx.strokeRect(x, y, w, h);
        ctx.strokeStyle = '#fff';
        ctx.strokeRect(x - line, y - line, w + 2 * line, h + 2 * line);
      }
    });
  }

  /**
   * The canvas and its outlines in one positioned box, in the canvas's place (once the canvas has
   * a parent: a step may build the canvas before placing it). The box takes the canvas's place
   * in the layout; the canvas fills it as before.
   */
  #wrap() {
    if (this.marks.parentNode || !this.canvas.parentNode) return;
    const box = document.createElement('div');
    box.className = 'heatmap-box';
    this.canvas.replaceWith(box);
    box.append(this.canvas, this.marks);
  }

  /**
   * The selection's and the cursor's outlines at a size of width × height CSS px: the cell's box
   * and the line width, or null for one not shown.
   */
  #outlines(width, height) {
    const cw = width / this.cols;
    const ch = height / this.rows;
    return [this.selected, this.cursor].map((c, k) => (c && this.values
      ? { x: c.col * cw, y: c.row * ch, w: cw, h: ch, line: OUTLINE[k] } : null));
  }

  /** Moves the SVG outlines to the selected cell and the cursor (dark inside, light outside). */
  #placeMarks() {
    const boxes = this.size ? this.#outlines(this.size.width, this.size.height) : [null, null];
    this.outlines.forEach(([dark, light], k) => {
      const o = boxes[k];
      if (dark.hasAttribute('display') !== !o) {
        for (const r of [dark, light]) {
          if (o) r.removeAttribute('display');
          else r.setAttribute('display', 'none');
        }
      }
      if (!o) return;
      const set = (r, grow) => {
        r.setAttribute('x', o.x - grow);
        r.setAttribute('y', o.y - grow);
        r.setAttribute('width', o.w + 2 * grow);
        r.setAttribute('height', o.h + 2 * grow);
        r.setAttribute('stroke-width', o.line);
      };
      set(dark, 0);
      set(light, o.line);
    });
  }

  /**
   * values.length must equal rows * cols. pixels (optional): the cells' colours, one RGBA word
   * per cell in ImageData's byte order, already worked out by the caller (a figure that colours
   * from its own table); values then only feed onCell. kept: the caller never changes these
   * pixels nor draws them in another shape (a map it keeps and shows again): the heatmap then
   * keeps their picture too, one rows × cols canvas for as long as the array lives, so showing
   * them again is one unscaled copy (re-uploading GPT-2's learned table, 1,536 × 64 cells, with
   * putImageData took 1.3–2.6 ms per switch in Firefox).
   *
   * The canvas holds one pixel per cell and the browser scales it to the canvas's box
   * (image-rendering: pixelated, so cells stay sharp-edged). Drawing the cells at the
   * box's size in device pixels instead cost a scaled copy of the whole box on every draw, and
   * in Firefox the first few writes to a canvas after it has rested took 3–5 ms at that size
   * (458 × 458 px), whatever the write.
   */
  draw(values, rows, cols, pixels = null, { kept = false } = {}) {
    if (!(values instanceof Float32Array) || values.length !== rows * cols) {
      throw new RangeError(`heatmap data must be a Float32Array of rows*cols = ${rows * cols}`);
    }
    if (pixels !== null && !(pixels instanceof Uint32Array && pixels.length === rows * cols)) {
      throw new RangeError(`heatmap pixels must be a Uint32Array of rows*cols = ${rows * cols}`);
    }
    if (kept && pixels === null) throw new TypeError('heatmap: draw with { kept: true } needs pixels, the Uint32Array of colours to keep');
    this.values = values;
    this.rows = rows;
    this.cols = cols;
    // The grid's shape on the element, so a test can aim at a cell's centre.
    if (this.canvas.dataset.grid !== `${rows}x${cols}`) this.canvas.dataset.grid = `${rows}x${cols}`;
    // Resizing clears and reallocates the canvas: only when the grid's shape changes.
    const resized = this.canvas.width !== cols || this.canvas.height !== rows;
    if (resized) {
      this.canvas.width = cols;
      this.canvas.height = rows;
    }
    // Nothing is written when `pixels` is the array on the canvas already (the same map drawn
    // again): a caller with new colours must therefore pass another array; a reused one is fine
    // as long as it is not the last drawn.
    if (resized || pixels === null || pixels !== this.drawn) {
      const ctx = this.canvas.getContext('2d', CPU);
      if (kept) {
        this.keep(pixels, rows, cols);
        ctx.clearRect(0, 0, cols, rows);  // gaps are transparent: the last picture must not show through
        ctx.drawImage(this.keptSources.get(pixels), 0, 0);
      } else {
        ctx.putImageData(imageOf(pixels ?? cellColours(values, this.limit), cols, rows), 0, 0);
      }
      this.drawn = pixels;
    }
    if (this.cursor && (this.cursor.row >= rows || this.cursor.col >= cols)) this.cursor = null;
    if (this.selected && (this.selected.row >= rows || this.selected.col >= cols)) this.selected = null;
    this.#placeMarks();
    if (this.cursor) this.#report();
  }

  /**
   * Makes the picture of a map that will be drawn with { kept: true } before its first draw (a
   * step calls it in idle time for the maps a reader may switch to): that first draw is then a
   * copy, as every later one is, instead of an upload as well (GPT-2's learned table: about 2 ms).
   */
  keep(pixels, rows, cols) {
    if (!(pixels instanceof Uint32Array && pixels.length === rows * cols)) {
      throw new RangeError(`heatmap pixels must be a Uint32Array of rows*cols = ${rows * cols}`);
    }
    const had = this.keptSources.get(pixels);
    if (had?.width === cols && had.height === rows) return;
    const source = document.createElement('canvas');
    source.width = cols;
    source.height = rows;
    source.getContext('2d', CPU).putImageData(imageOf(pixels, cols, rows), 0, 0);
    this.keptSources.set(pixels, source);
  }

  /** Marks a cell as selected (null clears it) without calling onSelect. */
  select(cell) {
    this.selected = cell;
    this.#placeMarks();
  }

  #cellAt(e) {
    if (!this.values) return null;
    const r = this.canvas.getBoundingClientRect();
    const col = Math.floor(((e.clientX - r.left) / r.width) * this.cols);
    const row = Math.floor(((e.clientY - r.top) / r.height) * this.rows);
    if (row < 0 || col < 0 || row >= this.rows || col >= this.cols) return null;
    return { row, col };
  }

  #press(e) {
    if (!e.isPrimary || e.button > 0) return;
    // A touch pointer is captured already (implicit capture); a pen is not: capture both, so a
    // drag past the edge keeps the cursor on the last cell rather than dropping it.
    if (e.pointerType !== 'mouse') this.canvas.setPointerCapture?.(e.pointerId);
    this.#pointer(e);
  }

  #pointer(e) {
    // A touch moves the cursor only while it is down (it has no hover); so does a pen.
    if (e.pointerType !== 'mouse' && !this.canvas.hasPointerCapture?.(e.pointerId)) return;
    const cell = this.#cellAt(e);
    if (cell) this.#setCursor(cell);
  }

  #key(e) {
    if (!this.values || e.altKey || e.ctrlKey || e.metaKey) return;
    const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
    const jump = e.key === 'Home' || e.key === 'End';
    if (!step && !jump) return;
    e.preventDefault();
    // With a selection (and a step listening), the keys move it, and the cursor with it;
    // otherwise they move the cursor. Home and End go to the first and last column of the row.
    const moveSelection = this.onSelect && this.selected;
    const from = moveSelection ? this.selected : this.cursor;
    const c = from ?? { row: 0, col: 0 };
    const row = jump ? c.row : Math.min(this.rows - 1, Math.max(0, c.row + (from ? step[0] : 0)));
    const col = jump ? (e.key === 'Home' ? 0 : this.cols - 1) : Math.min(this.cols - 1, Math.max(0, c.col + (from ? step[1] : 0)));
    if (moveSelection) this.onSelect({ row, col });
    this.#setCursor({ row, col });
  }

  #setCursor(cell) {
    this.cursor = cell;
    this.#placeMarks();
    this.#report();
  }

  #report() {
    const c = this.cursor;
    this.onCell(c ? { ...c, value: this.values[c.row * this.cols + c.col] } : null);
  }
}

/**
 * A heatmap's vertical axis title (class axis-y, set in the vertical writing mode): its arrows
 * stand upright, so "position ↓" points down. Turned with the text, ↓ would read as ←.
 */
export function axisTitleY(text) {
  return h('span', { class: 'axis axis-y' },
    text.split(/([↓↑])/).filter(Boolean).map((part) => (/^[↓↑]$/.test(part) ? h('span', { class: 'upright' }, part) : part)));
}
