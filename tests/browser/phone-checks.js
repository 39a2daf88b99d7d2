// Checks run inside the page, on one step's card, for reading it on a phone: the learner test
// (tests/browser/learner.test.js) and the length tool (tests/browser/lengths.mjs) share them.
// Each is self-contained: Playwright sends only its source to the page.

/**
 * The card of step `id`: its height, how far below its top the first figure starts (the first
 * visible svg, canvas or table at least 60 px high: swatches and icons are smaller; one in a
 * closed fold does not count) and how far down the page the card starts (px).
 */
export function cardMeasure(id) {
  const card = document.getElementById(id);
  const box = card.getBoundingClientRect();
  const top = box.top + scrollY;
  let figure = null;
  for (const el of card.querySelectorAll('svg, canvas, table')) {
    if (!el.checkVisibility() || el.closest('details:not([open])')) continue;
    const r = el.getBoundingClientRect();
    if (r.height < 60) continue;
    const y = r.top + scrollY - top;
    if (figure === null || y < figure) figure = y;
  }
  return { height: box.height, figure, above: top };
}

/**
 * The boxes in step `id` that clip content sideways: an element whose overflow-x is not visible
 * (a scroller, or hidden) and whose content is wider than its box, as "<class>: <content> px in
 * <box> px". A scroller hides what lies past its edge until the reader thinks of swiping it.
 * Text areas (code) are left out: they read as scrollable text.
 */
export function clippedScrollers(id) {
  const out = [];
  for (const el of document.querySelectorAll(`#${id} *`)) {
    if (el.tagName === 'TEXTAREA' || !el.checkVisibility() || el.closest('details:not([open])')) continue;
    if (getComputedStyle(el).overflowX === 'visible') continue;
    // A visually hidden element (1 px, clipped: screen reader text) hides its text on purpose.
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      out.push(`${el.tagName.toLowerCase()}.${String(el.className?.baseVal ?? el.className).trim().replace(/\s+/g, '.')}: ${el.scrollWidth} px in ${el.clientWidth} px`);
    }
  }
  return out;
}

/**
 * Formula lines of step `id` that run into each other: for every pair of <math> elements, the
 * union of the boxes of their parts (each token's box: scripts, limits and stretched brackets
 * included, which may reach past the <math> box itself) must not overlap by more than a pixel in
 * both directions. Returns "<text a>" and "<text b>" overlap <w> × <h> px, and how many formulas
 * were checked.
 */
export function overlappingFormulas(id) {
  const inks = [];
  for (const math of document.querySelectorAll(`#${id} math`)) {
    if (!math.checkVisibility() || math.closest('details:not([open])')) continue;
    let box = null;
    for (const part of [math, ...math.querySelectorAll('mi, mn, mo, mtext, ms, mspace')]) {
      const r = part.getBoundingClientRect();
      if (!r.width || !r.height) continue;
      box = box ? { left: Math.min(box.left, r.left), right: Math.max(box.right, r.right), top: Math.min(box.top, r.top), bottom: Math.max(box.bottom, r.bottom) } : { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    }
    if (box) inks.push({ text: math.textContent.replace(/\s+/g, ' ').trim().slice(0, 40), box, math });
  }
  const out = [];
  for (let a = 0; a < inks.length; a++) {
    for (let b = a + 1; b < inks.length; b++) {
      // A formula inside another (a <math> nested in a <math>) is a part of it, not a line.
      if (inks[a].math.contains(inks[b].math) || inks[b].math.contains(inks[a].math)) continue;
      const A = inks[a].box;
      const B = inks[b].box;
      const w = Math.min(A.right, B.right) - Math.max(A.left, B.left);
      const h = Math.min(A.bottom, B.bottom) - Math.max(A.top, B.top);
      if (w > 1 && h > 1) out.push(`"${inks[a].text}" and "${inks[b].text}" overlap ${w.toFixed(1)} × ${h.toFixed(1)} px`);
    }
  }
  return { out, n: inks.length };
}

/**
 * Text in step `id` drawn smaller than `min` CSS px: HTML and MathML text at its computed font
 * size, SVG text at its font size times the drawing's scale on screen. Each as "<text>" <px> px
 * (<element>), and how many texts were checked. Screen reader text (1 px boxes) is left out.
 */
export function smallText(id, min = 12) {
  const out = [];
  let n = 0;
  const walker = document.createTreeWalker(document.getElementById(id), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || !el.checkVisibility() || el.closest('details:not([open])')) continue;
    // Text inside a closed <details> other than its summary is not shown.
    const range = document.createRange();
    range.selectNodeContents(node);
    const r = range.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) continue;
    let px = parseFloat(getComputedStyle(el).fontSize);
    const svg = el.closest('svg');
    if (svg) {
      const m = el.getScreenCTM?.() ?? svg.getScreenCTM();
      px *= m ? Math.hypot(m.a, m.b) : 1;
    }
    n++;
    if (px < min - 0.01) out.push(`"${text.slice(0, 30)}" ${px.toFixed(1)} px (${el.tagName.toLowerCase()}${el.getAttribute('class') ? `.${el.getAttribute('class').trim().split(/\s+/)[0]}` : ''})`);
  }
  return { out, n };
}

/**
 * Formulas in the prose of step `id` that a line break splits (students read "Σ|qᵢ|" / "²" and
 * "(m −" / "n))" across two lines): an inline <math> box on more than one line, and, in the
 * text, a binary operator with spaces on both sides ("x = y", "a + b") or a cos/sin and its
 * argument whose characters do not all sit on one line. Each as "<text>" (<where>), and how many
 * were checked. Text inside closed folds is left out.
 */
export function brokenFormulas(id) {
  const out = [];
  let n = 0;
  const root = document.getElementById(id);
  const shown = (el) => el.checkVisibility() && !el.closest('details:not([open])');
  const lines = (range) => new Set([...range.getClientRects()].filter((r) => r.width > 0.5).map((r) => Math.round(r.top + r.height / 2))).size;
  for (const m of root.querySelectorAll('p math, li math, figcaption math, .legend-item math')) {
    if (!shown(m)) continue;
    n++;
    const rects = [...m.getClientRects()];
    if (rects.length > 1) out.push(`"${m.textContent.replace(/\s+/g, '')}" (inline formula on ${rects.length} lines)`);
  }
  const pattern = /\S[ \u00a0][=≈−+×·≤≥<>][ \u00a0]\S|(?<![\p{L}])(?:cos|sin)[ \u00a0][\p{N}(−\p{Script=Greek}]/gu;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !el.closest('p, li, figcaption') || el.closest('svg, math') || !shown(el)) continue;
    for (const match of node.textContent.matchAll(pattern)) {
      n++;
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      if (lines(range) > 1) out.push(`"${match[0]}" in "${node.textContent.slice(Math.max(0, match.index - 20), match.index + 25)}"`);
    }
  }
  return { out, n };
}
