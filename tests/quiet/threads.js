// Where the machine's CPU went while an engine's timing walk ran: every thread's time on a core
// and time spent runnable but waiting for one, from Linux's /proc/<pid>/task/<tid>/schedstat. An
// update's wall time includes the time its thread waited for a core, and on two cores the
// engine's own other threads (the compositor, a software GL rasterizer, the browser process)
// compete with the page: this says how much, beside the update table. A report, never a test.
import { readdir, readFile } from 'node:fs/promises';

/** Every thread's [process name, thread name, ns on a core, ns waiting], by "pid/tid"; null off Linux. */
export async function threadTimes() {
  let pids;
  try {
    pids = (await readdir('/proc')).filter((p) => /^\d+$/.test(p));
  } catch {
    return null;
  }
  const out = new Map();
  await Promise.all(pids.map(async (pid) => {
    try {
      const comm = (await readFile(`/proc/${pid}/comm`, 'utf8')).trim();
      for (const tid of await readdir(`/proc/${pid}/task`)) {
        const [run, wait] = (await readFile(`/proc/${pid}/task/${tid}/schedstat`, 'utf8')).split(' ').map(Number);
        const thread = (await readFile(`/proc/${pid}/task/${tid}/comm`, 'utf8')).trim();
        out.set(`${pid}/${tid}`, [comm, thread, run, wait]);
      }
    } catch {
      // the process or thread ended meanwhile
    }
  }));
  return out;
}

/**
 * The `count` threads that ran longest over some spans, each a [before, after] pair of
 * threadTimes() snapshots (a thread's time in a span counts only if the thread lives at its end:
 * take the end before closing a page whose process would end with it), with the seconds each ran
 * and waited, and the seconds the spans lasted: { seconds, ran, threads: [{ process, thread, ran, waited }] }.
 */
export function busiest(spans, seconds, count = 8) {
  if (spans.some(([before, after]) => !before || !after)) return null;
  const sums = new Map();  // "pid/tid" → { process, thread, ran, waited }
  for (const [before, after] of spans) {
    for (const [key, [process, thread, run, wait]] of after) {
      const [run0, wait0] = before.has(key) ? before.get(key).slice(2) : [0, 0];
      const r = sums.get(key) ?? { process, thread, ran: 0, waited: 0 };
      r.ran += (run - run0) / 1e9;
      r.waited += (wait - wait0) / 1e9;
      sums.set(key, r);
    }
  }
  const rows = [...sums.values()].sort((a, b) => b.ran - a.ran);
  return { seconds, ran: rows.reduce((s, r) => s + r.ran, 0), threads: rows.slice(0, count) };
}
