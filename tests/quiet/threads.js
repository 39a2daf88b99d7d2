// Where the machine's CPU went while an engine's timing walk ran: every thread's time on a core
// and time spent runnable but waiting for one, from Linux's /proc/<pid>/task/<tid>/schedstat. An
// update's wall time includes the time its thread waited for a core, and on two cores the
// engine's own other threads (the compositor, a software GL rasterizer, the browser process)
// compete with the page: this says how much, beside the update table. A report, never a test.
import { readdir, readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';

/** Every thread's [process name, thread name, ns on a core, ns waiting], by "pid/tid"; null off Linux. */
export async function threadTimes() {
  let pids;
  try {
    pids = (await readdir('/proc')).filter((p) => /^\d+$/.test(p));
  } catch {
    return null;
  }
  const out = new Map();
  // A process or thread that ends meanwhile is left out (each read on its own: one thread's end
  // must not drop the threads read after it).
  const gone = () => null;
  await Promise.all(pids.map(async (pid) => {
    const comm = await readFile(`/proc/${pid}/comm`, 'utf8').catch(gone);
    const tids = await readdir(`/proc/${pid}/task`).catch(gone);
    if (comm === null || tids === null) return;
    await Promise.all(tids.map(async (tid) => {
      const stat = await readFile(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').catch(gone);
      const thread = await readFile(`/proc/${pid}/task/${tid}/comm`, 'utf8').catch(gone);
      if (stat === null || thread === null) return;
      const [run, wait] = stat.split(' ').map(Number);
      out.set(`${pid}/${tid}`, [comm.trim(), thread.trim(), run, wait]);
    }));
  }));
  return out;
}

/**
 * Spans of time reported together: start() and end() around each. A thread counts only if it
 * lives at a span's end: end a span before closing a page whose process may end with it.
 * result() gives the `count` threads that ran longest over all spans:
 * { seconds, cores, ran, threads: [{ process, thread, ran, waited }] } (seconds throughout), or
 * null without /proc.
 */
export function cpuSpans() {
  const spans = [];  // [before, after] snapshots
  let seconds = 0;
  let open = null;   // [start time, snapshot]
  return {
    async start() { open = [performance.now(), await threadTimes()]; },
    async end() {
      const [start, before] = open;
      spans.push([before, await threadTimes()]);
      seconds += (performance.now() - start) / 1000;
    },
    result: (count = 8) => busiest(spans, seconds, count),
  };
}

function busiest(spans, seconds, count) {
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
  return { seconds, cores: availableParallelism(), ran: rows.reduce((s, r) => s + r.ran, 0), threads: rows.slice(0, count) };
}
