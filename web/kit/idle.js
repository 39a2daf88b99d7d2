// Work for the page's idle time, scheduled in one place: requestIdleCallback where the engine has
// it, a timer or the next frame where it has not (WebKit). The root element counts the work still waiting
// (data-idle-work, absent at none), so that what needs the page settled, a test or a timing,
// waits for the page's own signal instead of a guessed time.

let waiting = 0;
const mark = () => {
  const root = globalThis.document?.documentElement;
  if (!root) return;
  if (waiting) root.dataset.idleWork = String(waiting);
  else delete root.dataset.idleWork;
};

/**
 * Runs fn(deadline) once the page is idle. Returns a function that cancels it (a no-op once it ran).
 * Work that schedules more from inside fn, synchronously, keeps the count above zero as any other
 * task sees it.
 * @param {(deadline: {timeRemaining(): number}) => void} fn
 * @param {{timeout?: number, fallback?: number|'frame', slot?: number}} [options]  timeout: the
 *   longest requestIdleCallback may wait (ms); without requestIdleCallback, fn runs `fallback` ms
 *   after the call with a deadline `slot` ms long, or with 'frame' right after the next frame,
 *   with a deadline that ends FRAME_IDLE ms after that frame began (at most `slot` ms); with no
 *   frame within FRAME_BACKSTOP ms (a hidden page draws none), or no requestAnimationFrame,
 *   a timer then runs it with a `slot`-ms deadline
 */
export function whenIdle(fn, { timeout, fallback = 50, slot = 10 } = {}) {
  let pending = true;
  const settle = () => {
    if (!pending) return false;
    pending = false;
    waiting--;
    mark();
    return true;
  };
  waiting++;
  mark();
  // The count drops before fn runs, so that a fn that throws cannot leave it up for good; more
  // work fn schedules raises it again within the same task, so no other task sees zero between.
  const run = (deadline) => {
    if (settle()) fn(deadline);
  };
  if (globalThis.requestIdleCallback) {
    const id = requestIdleCallback(run, timeout === undefined ? undefined : { timeout });
    return () => { if (settle()) cancelIdleCallback(id); };
  }
  const slotFrom = (end) => ({ didTimeout: false, timeRemaining: () => Math.max(0, end - performance.now()) });
  if (fallback === 'frame' && globalThis.requestAnimationFrame) {
    // Right after the next frame is painted (a timer queued from its animation-frame callback),
    // with a deadline FRAME_IDLE ms after that frame began, at most `slot`: the idle period
    // requestIdleCallback gives between frames, for work that should be done before the next
    // change of a drag, one frame later. A hidden page draws no frame: a later timer stands in.
    let timer;
    const frame = requestAnimationFrame((began) => {
      clearTimeout(backstop);
      timer = setTimeout(() => run(slotFrom(Math.min(performance.now() + slot, began + FRAME_IDLE))), 0);
    });
    const backstop = setTimeout(() => {
      cancelAnimationFrame(frame);
      run(slotFrom(performance.now() + slot));
    }, FRAME_BACKSTOP);
    return () => {
      if (!settle()) return;
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      clearTimeout(backstop);
    };
  }
  const id = setTimeout(() => run(slotFrom(performance.now() + slot)), fallback === 'frame' ? 0 : fallback);
  return () => { if (settle()) clearTimeout(id); };
}

/**
 * Runs the functions of `work` one after another in the page's idle time: at least one per idle
 * period, more while the period has over `keep` ms left (whenIdle's options choose the periods).
 * Returns a function that cancels what has not run.
 * @param {Array<() => void>} work
 * @param {{timeout?: number, fallback?: number|'frame', slot?: number}} [options]
 * @param {number} [keep]
 */
export function whenIdleEach(work, options = {}, keep = 4) {
  const queue = [...work];
  let cancel = () => {};
  const next = (deadline) => {
    // The rest is booked even when a function throws: one failure loses no other work.
    try {
      do queue.shift()(); while (queue.length && deadline.timeRemaining() > keep);
    } finally {
      if (queue.length) cancel = whenIdle(next, options);
    }
  };
  if (queue.length) cancel = whenIdle(next, options);
  return () => {
    queue.length = 0;
    cancel();
  };
}

// Of a 60 Hz frame's 16.7 ms, what idle work may take counted from the frame's start: the rest is
// left for the next frame's input and drawing.
const FRAME_IDLE = 12;
// How long 'frame' waits for a frame before a timer runs the work instead.
const FRAME_BACKSTOP = 100;
