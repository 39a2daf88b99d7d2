// Saving what a step shows: any figure (canvas or SVG, or several side by side) as a PNG, any
// table the core computed as CSV. Files are made in the page and handed to the browser as a
// download; nothing leaves the machine.

// Computed styles copied onto an SVG's elements, so a serialised copy looks like the page
// (the page styles SVGs through classes and CSS variables, which a detached image cannot see).
const SVG_STYLE = ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-dasharray', 'stroke-opacity', 'stroke-linecap',
  'opacity', 'font-size', 'font-family', 'font-weight', 'font-style', 'text-anchor', 'dominant-baseline',
  'visibility', 'display'];

function download(blob, filename) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function svgImage(svg) {
  const copy = svg.cloneNode(true);
  const from = [svg, ...svg.querySelectorAll('*')];
  const to = [copy, ...copy.querySelectorAll('*')];
  from.forEach((el, i) => {
    const cs = getComputedStyle(el);
    for (const prop of SVG_STYLE) to[i].style.setProperty(prop, cs.getPropertyValue(prop));
  });
  const box = svg.getBoundingClientRect();
  copy.setAttribute('width', String(Math.round(box.width)));
  copy.setAttribute('height', String(Math.round(box.height)));
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  const text = new XMLSerializer().serializeToString(copy);
  const img = new Image();
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
  return img.decode().then(() => ({ img, width: box.width, height: box.height }));
}

// What a step lays over a canvas (a hatched mask, a band, a marker line) is not in the canvas's
// pixels; the step registers a painter for it, and the PNG gets it drawn over the canvas.
const overlays = new WeakMap();

/**
 * Registers `paint(ctx, width, height)` (may be async) to draw over `canvas` in a saved PNG, in
 * the canvas's CSS pixels (the context is scaled). Painters run in the order registered.
 */
export function addExportOverlay(canvas, paint) {
  overlays.set(canvas, [...(overlays.get(canvas) ?? []), paint]);
}

/** A painter for an SVG laid exactly over the canvas (the same box): the SVG as the page shows it. */
export function svgOverlay(svg) {
  return async (ctx, width, height) => {
    const { img } = await svgImage(svg);
    ctx.drawImage(img, 0, 0, width, height);
  };
}

/** Renders the elements side by side at 2× on the page's card colour (white, or the dark
 * theme's, which the copied text colours are made for), with the overlays registered for
 * a canvas drawn over it; resolves to a PNG Blob. */
export async function figurePng(elements) {
  const parts = await Promise.all(elements.map((el) => (el instanceof HTMLCanvasElement
    ? { img: el, width: el.getBoundingClientRect().width, height: el.getBoundingClientRect().height, over: overlays.get(el) ?? [] }
    : svgImage(el))));
  const scale = 2;
  const gap = 12;
  const width = parts.reduce((w, p) => w + p.width, 0) + gap * (parts.length - 1);
  const height = Math.max(...parts.map((p) => p.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(width * scale);
  canvas.height = Math.ceil(height * scale);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = getComputedStyle(document.documentElement).getPropertyValue('--card').trim() || '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.imageSmoothingEnabled = false;  // heatmap cells stay crisp
  let x = 0;
  for (const p of parts) {
    ctx.drawImage(p.img, x * scale, 0, p.width * scale, p.height * scale);
    for (const paint of p.over ?? []) {
      ctx.save();
      ctx.beginPath();
      ctx.rect(x * scale, 0, p.width * scale, p.height * scale);
      ctx.clip();  // an overlay never spills onto the figure beside it
      ctx.translate(x * scale, 0);
      ctx.scale(scale, scale);
      await paint(ctx, p.width, p.height);
      ctx.restore();
    }
    x += p.width + gap;
  }
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
}

/** CSV text: a header row and rows of numbers or strings; numbers at full precision. */
export function csvText(header, rows) {
  const cell = (v) => {
    const text = typeof v === 'number' ? String(v) : String(v ?? '');
    return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [header, ...rows].map((r) => r.map(cell).join(',')).join('\n') + '\n';
}

export async function savePng(elements, filename) {
  download(await figurePng(elements), filename);
}

export function saveCsv(header, rows, filename) {
  download(new Blob([csvText(header, rows)], { type: 'text/csv' }), filename);
}
