// A check run inside the page, shared by the Chromium touch test (375 and 320 px, four
// languages), Chromium's page test and the Firefox/WebKit suite (1280 px): every text of every
// SVG figure in a step stays inside its figure's box, and no two tick labels of a figure run
// together. A figure's SVG may draw outside its viewBox (overflow: visible, for labels near an
// edge), but text that leaves the figure's own box is cut by the screen or runs into the text
// beside it. Self-contained: it is sent to the page as source.

/**
 * The texts of step `step` that reach past their SVG's box, as "<text>" <px> px past the <side>
 * of <svg class>, the tick labels side by side with less than 2 px between them, as "<text>" and
 * "<text>" <px> px apart in <svg class>, and
 * how many texts were checked.
 * @param {string} step
 * @returns {{out:string[], n:number}}
 */
export function textsOutsideFigures(step) {
  const out = [];
  let n = 0;
  for (const svg of document.querySelectorAll(`#${step} svg`)) {
    if (!svg.checkVisibility()) continue;
    const box = svg.getBoundingClientRect();
    const scale = svg.viewBox.baseVal && svg.viewBox.baseVal.width ? box.width / svg.viewBox.baseVal.width : 1;
    const ticks = [];
    for (const t of svg.querySelectorAll('text')) {
      const r = t.getBoundingClientRect();
      if (!t.textContent.trim() || !r.width || !t.checkVisibility()) continue;
      n++;
      if (t.classList.contains('tick')) ticks.push([t.textContent.trim(), r]);
      // A text's box is as long as its glyphs but higher than their ink: it holds the font's
      // whole ascent and descent (1.16 em of DejaVu Sans in Chromium), and what it holds beyond
      // 1 em is air above the letters (below them a descender leaves next to none). So half a
      // pixel (rounding) on every side, and that air on the side above the letters: the top, or
      // for a title turned a quarter turn back (rotate(-90)) the left.
      const em = parseFloat(getComputedStyle(t).fontSize) * scale;
      const m = t.getCTM();
      const upright = m && Math.abs(m.b) > Math.abs(m.a);
      const air = Math.max(0, (upright ? r.width : r.height) - em);
      const above = !upright ? 'top' : m.b < 0 ? 'left' : 'right';
      const past = { left: box.left - r.left, right: r.right - box.right, top: box.top - r.top, bottom: r.bottom - box.bottom };
      for (const side of Object.keys(past)) past[side] -= 0.5 + (side === above ? air : 0);
      for (const side of Object.keys(past)) {
        if (past[side] > 0) out.push(`"${t.textContent.trim()}" ${past[side].toFixed(1)} px past the ${side} of ${svg.getAttribute('class') || 'svg'}`);
      }
    }
    // Two labels side by side (their boxes share more than a pixel of height) need a gap of two
    // pixels or more: with less, "1 500" and "2 000" read as "1 5002 000".
    for (let a = 0; a < ticks.length; a++) {
      for (let b = a + 1; b < ticks.length; b++) {
        const [ta, ra] = ticks[a];
        const [tb, rb] = ticks[b];
        const gap = Math.max(ra.left, rb.left) - Math.min(ra.right, rb.right);
        const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
        if (gap < 2 && h > 1) out.push(`"${ta}" and "${tb}" ${gap.toFixed(1)} px apart in ${svg.getAttribute('class') || 'svg'}`);
      }
    }
  }
  return { out, n };
}
