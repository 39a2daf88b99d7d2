// A check run inside the page (Chromium's page test): the numeric tick labels of every axis of a
// step's figures say the values their ticks stand at. Ticks are evenly spaced, so the labels of
// one axis are distinct and every difference between two of them is a whole multiple of the
// smallest one (a label may be left out where it would run into its neighbour). A label rounded
// to fewer decimals than its tick needs breaks that: the train step's components plot read
// "−3, −2, −2, −1" for −2.5, −2, −1.5, −1. Log-scale plots (decades, and an end tick where the
// data ends) and axes with fewer than three numeric labels are left out. Self-contained: it is
// sent to the page as source.

/**
 * The axes of step `step` whose labels are not evenly spaced values, as
 * "<svg class> <x|y> axis: <labels>", and how many axes were checked.
 * @param {string} step
 * @returns {{out:string[], n:number}}
 */
export function ticksOffScale(step) {
  const out = [];
  let n = 0;
  // The page's number format in English: "−" for minus, "," between thousands, "+" on some.
  const value = (text) => (/^[+\u2212-]?[\d,]*\.?\d+$/.test(text) ? Number(text.replace('\u2212', '-').replace(/[,+]/g, '')) : NaN);
  for (const svg of document.querySelectorAll(`#${step} svg`)) {
    if (!svg.checkVisibility() || svg.classList.contains('logplot')) continue;
    // One axis: the labels set at the same x (a vertical axis, right-aligned) or at the same y
    // (a horizontal axis, centred).
    const axes = new Map();
    for (const t of svg.querySelectorAll('text.tick')) {
      if (!t.checkVisibility() || !t.textContent.trim()) continue;
      const anchor = t.getAttribute('text-anchor');
      const key = anchor === 'end' ? `y@${t.getAttribute('x')}` : anchor === 'middle' ? `x@${t.getAttribute('y')}` : null;
      if (!key) continue;
      if (!axes.has(key)) axes.set(key, []);
      axes.get(key).push(t.textContent.trim());
    }
    for (const [key, labels] of axes) {
      const values = labels.map(value);
      if (labels.length < 3 || values.some((v) => !Number.isFinite(v))) continue;
      n++;
      const sorted = [...values].sort((a, b) => a - b);
      const gaps = sorted.slice(1).map((v, k) => v - sorted[k]);
      const least = Math.min(...gaps);
      const even = least > 0 && gaps.every((g) => Math.abs(g / least - Math.round(g / least)) < 1e-6);
      if (!even) out.push(`${svg.getAttribute('class')} ${key[0]} axis: ${labels.join(', ')}`);
    }
  }
  return { out, n };
}
