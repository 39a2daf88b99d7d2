// The figures a step builds, as it builds them: each kit figure (heatmap, line plot, bars, ...)
// registers itself when it is made, and the page collects the registrations of one step's
// mount. The page then knows a step's figures without searching its DOM for them (the Save PNG
// buttons come from this list). A figure made outside a collection (after its step mounted,
// or on a page that collects nothing, such as the Lab) is not registered anywhere.

let collecting = null;  // the list the current collectFigures fills, or null

/**
 * Declares `element` a figure of the step being built.
 * @param {Element} element  the figure: a canvas, an SVG, or a group of them
 * @param {{parts?: Element[] | (() => Element[]), holder?: Element}} [options]
 *   parts: what its PNG shows, side by side (default: the element); a function is called at the
 *   moment of saving, for a figure whose pieces are rebuilt as it redraws.
 *   holder: the block the figure's tools go under (default: a canvas itself, an SVG's parent).
 */
export function registerFigure(element, { parts, holder } = {}) {
  collecting?.push({ element, parts: parts ?? [element], holder });
}

/**
 * Runs `build()` and returns what it returned with the figures registered meanwhile, in the
 * order they registered. Collections nest: an inner one keeps its figures to itself.
 * @template T
 * @param {() => T} build
 * @returns {{ result: T, figures: {element: Element, parts: Element[] | (() => Element[]), holder?: Element}[] }}
 */
export function collectFigures(build) {
  const outer = collecting;
  const figures = [];
  collecting = figures;
  try {
    return { result: build(), figures };
  } finally {
    collecting = outer;
  }
}
