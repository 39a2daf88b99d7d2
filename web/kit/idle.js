// Work for the page's idle time, scheduled in one place: requestIdleCallback where the engine has
// it, a timer where it has not (WebKit). The root element counts the work still waiting
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
 * @param {{timeout?: number, fallback?: number, slot?: number}} [options]  timeout: the longest
 *   requestIdleCallback may wait (ms); without requestIdleCallback, fn runs `fallback` ms after
 *   the call with a deadline `slot` ms long
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
  const id = setTimeout(() => {
    const end = performance.now() + slot;
    run({ didTimeout: false, timeRemaining: () => Math.max(0, end - performance.now()) });
  }, fallback);
  return () => { if (settle()) clearTimeout(id); };
}
