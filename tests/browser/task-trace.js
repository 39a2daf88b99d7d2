// The main thread's CPU time of every step update, from Chrome's own trace. performance.measure
// gives wall time: on this 2-core machine, with other test files running beside it (npm test runs
// two at a time), an update that costs 2 ms of CPU can take 13 ms of wall time because the
// renderer was not scheduled (seen in traces: wall 12.9 ms, thread 2.9 ms). The update tables
// show both, so that what the code costs and what the machine added can be told apart.
//
// The trace is browser-wide, owned by a blank page that lives as long as the browser (a page's
// own trace would end when the test closes it). Only the devtools.timeline category (events
// that carry thread time: event dispatches, timers, animation frames) and user timing (the
// update:<step> measures) are recorded, ~1,000 events a second, kept only as far as needed.

// Long tasks: a test that watches them (long-tasks.js) marks each one it saw in the page as a
// longtask:<name> measure over the task's time; its CPU is the summed thread time of the outermost
// traced events inside it (scripts, events, layout, paint), give or take the millisecond of slack
// below. That is a lower bound: untraced main-thread work and work on helper threads such as
// parallel GC are not in it. A low figure therefore suggests, but does not prove, that the task
// mostly waited.

/** Starts tracing in `context`; returns { stop() → [{ name, startTime, wall, cpu }] } (ms). */
export async function traceUpdates(context) {
  const keeper = await context.newPage();
  const cdp = await context.newCDPSession(keeper);
  const begins = new Map();  // pid/id of an update measure → its begin event
  const measures = [];       // { name, startTime, pid, tid, ts, dur } (µs)
  const tasks = [];          // main-thread events with thread time: { pid, tid, ts, dur, tdur }
  cdp.on('Tracing.dataCollected', ({ value }) => {
    for (const e of value) {
      if (e.cat === 'blink.user_timing' && /^(update|longtask):/.test(String(e.name))) {
        const key = `${e.pid}/${e.id2?.local ?? e.id}/${e.name}`;
        if (e.ph === 'b') begins.set(key, e);
        else if (e.ph === 'e' && begins.has(key)) {
          const b = begins.get(key);
          begins.delete(key);
          measures.push({ name: e.name, startTime: b.args.startTime, pid: b.pid, tid: b.tid, ts: b.ts, dur: e.ts - b.ts });
        }
      } else if (e.ph === 'X' && e.tdur !== undefined && e.pid === e.tid) {
        tasks.push({ pid: e.pid, tid: e.tid, ts: e.ts, dur: e.dur, tdur: e.tdur });
      }
    }
  });
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: ['devtools.timeline', 'blink.user_timing'] },
    transferMode: 'ReportEvents',
  });
  return {
    async stop() {
      const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
      await cdp.send('Tracing.end');
      await done;
      await keeper.close();
      // An update's CPU time is at most its wall time and at most the thread time of the
      // innermost traced event around it (the input or change event that ran it); the smaller
      // of the two is the bound reported.
      return measures.map((m) => {
        const wall = m.dur / 1000;
        if (m.name.startsWith('longtask:')) {
          // The entry's times are rounded to whole milliseconds: a millisecond of slack each side.
          const [from, to] = [m.ts - 1000, m.ts + m.dur + 1000];
          const inside = tasks.filter((t) => t.pid === m.pid && t.tid === m.tid && t.ts >= from && t.ts + t.dur <= to)
            .sort((x, y) => x.ts - y.ts || y.dur - x.dur);
          let cpu = 0;
          let end = -Infinity;  // outermost events only: one nested in a counted one is in its time
          for (const t of inside) {
            if (t.ts < end) continue;
            cpu += t.tdur;
            end = t.ts + t.dur;
          }
          return { name: m.name, startTime: m.startTime, wall, cpu: Math.min(wall, cpu / 1000) };
        }
        let inner = null;
        for (const t of tasks) {
          if (t.pid === m.pid && t.tid === m.tid && t.ts <= m.ts && t.ts + t.dur >= m.ts + m.dur && (!inner || t.dur < inner.dur)) inner = t;
        }
        return { name: m.name, startTime: m.startTime, wall, cpu: inner ? Math.min(wall, inner.tdur / 1000) : wall };
      });
    },
  };
}
