// Boxes that scroll sideways when the screen is too narrow (wide formulas, tables) take
// keyboard focus while, and only while, they overflow: then the arrow keys can scroll them
// (WCAG 2.1.1), and on a wide screen they are not empty tab stops. A box the step made
// focusable itself (an explicit tabindex) is left alone, and so is one with a focusable inside.

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]';

/**
 * Watches the scroll boxes in `root`. check() runs after the next frame (coalesced); call it
 * after anything that may change what overflows. Resizes of `root` call it by themselves.
 */
export function keyboardScrollers(root) {
  let queued = false;
  const run = () => {
    queued = false;
    if (root.closest('[hidden]')) return;
    for (const el of root.querySelectorAll('div, figure')) {
      const ours = el.dataset.scrollFocus === 'true';
      if (!ours && el.hasAttribute('tabindex')) continue;
      // Widths first: they are one layout read, while a computed style per box costs more (this
      // runs after every update, and a step has hundreds of boxes).
      const wider = el.scrollWidth > el.clientWidth + 1;
      const x = wider ? getComputedStyle(el).overflowX : '';
      const scrolls = wider && (x === 'auto' || x === 'scroll') && !el.querySelector(FOCUSABLE);
      if (scrolls && !ours) {
        el.tabIndex = 0;
        el.dataset.scrollFocus = 'true';
      } else if (!scrolls && ours) {
        el.removeAttribute('tabindex');
        delete el.dataset.scrollFocus;
      }
    }
  };
  const check = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(run);
  };
  new ResizeObserver(check).observe(root);
  return { check };
}
