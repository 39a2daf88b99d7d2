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
  // Whether a box's overflow-x lets it scroll, read once per box: a computed style costs more
  // than the widths, and only a box that can scroll needs its widths read. Forgotten when the
  // root's width changes, in case a width query some day sets another overflow; a change of
  // overflow without a change of that width is not seen. A change of height alone keeps them: a
  // step's height changes with what it shows (a train task's results), and no stylesheet sets the
  // overflow of a div or figure by anything but fixed rules today.
  let scrollable = new WeakMap();
  let width = -1;
  const canScroll = (el) => {
    let yes = scrollable.get(el);
    if (yes === undefined) {
      const x = getComputedStyle(el).overflowX;
      yes = x === 'auto' || x === 'scroll';
      scrollable.set(el, yes);
    }
    return yes;
  };
  const run = () => {
    queued = false;
    if (root.closest('[hidden]')) return;
    for (const el of root.querySelectorAll('div, figure')) {
      const ours = el.dataset.scrollFocus === 'true';
      if (!ours && el.hasAttribute('tabindex')) continue;
      const scrolls = canScroll(el) && el.scrollWidth > el.clientWidth + 1 && !el.querySelector(FOCUSABLE);
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
  new ResizeObserver(([entry]) => {
    const now = entry.contentRect.width;
    if (now !== width) scrollable = new WeakMap();
    width = now;
    check();
  }).observe(root);
  return { check };
}
