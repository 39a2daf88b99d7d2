// The page's main-thread tasks over 50 ms (the Long Tasks API), for the tests that report them.
// Each task a test reads is also marked in the page as a longtask:<name> measure over its time, so
// that a traced browser (startBrowser({ timed: true }), task-trace.js) gives its main-thread CPU
// (a lower bound) beside its wall time: on this 2-core machine a task can last 120 ms while its
// main thread runs for 20.

/** Starts collecting the page's long tasks. */
export async function watchLongTasks(page) {
  await page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask' });
  });
}

/** The long tasks so far, [{ start, duration }] (ms, page time), each marked as a longtask:<name> measure. */
export async function readLongTasks(page, name) {
  return page.evaluate((measure) => {
    for (const t of window.__longTasks.slice(window.__longTasksMarked ?? 0)) {
      performance.measure(measure, { start: t.start, duration: t.duration });
    }
    window.__longTasksMarked = window.__longTasks.length;
    return window.__longTasks;
  }, `longtask:${name}`);
}
