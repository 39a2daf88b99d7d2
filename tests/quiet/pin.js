// A core of its own for the page's main thread while an engine's updates are timed. An update
// is timed on the page's main thread (performance.measure in web/app.js); on this 2-core machine
// the engine's other threads (the compositor, WebRender's software renderer, the browser
// process, the test's own driver) are runnable at the same moments, and a measured update then
// includes time its thread spent waiting for a core (threads.js shows how much). A reader's
// machine with more cores runs them beside the page, not instead of it. So the timed walks put
// every page main thread on one core and everything else this test started on the other cores,
// and put them back after. Nothing else on the machine is touched. Linux only (/proc, and
// python3's os.sched_setaffinity, which the build needs anyway); elsewhere, on one core, without
// python3, or with no page process found, nothing is pinned and pinPage() says why.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

// The processes whose first thread (tid = pid) runs a page's scripts, by engine.
const PAGE_PROCESS = {
  chromium: ({ cmdline }) => cmdline.includes('--type=renderer'),
  firefox: ({ comm }) => /^(Web Content|Isolated Web Co)/.test(comm),
  webkit: ({ comm }) => comm.startsWith('WebKitWebProces'),
};

/** This process and every process below it: { pid, comm, cmdline, tids }. */
async function ownTree() {
  const parents = new Map();
  await Promise.all((await readdir('/proc')).filter((p) => /^\d+$/.test(p)).map(async (pid) => {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
    if (stat) parents.set(Number(pid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
  }));
  const pids = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, parent] of parents) if (!pids.has(pid) && pids.has(parent)) { pids.add(pid); grew = true; }
  }
  const out = [];
  await Promise.all([...pids].map(async (pid) => {
    const [comm, cmdline, tids] = await Promise.all([
      readFile(`/proc/${pid}/comm`, 'utf8').catch(() => null),
      readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => null),
      readdir(`/proc/${pid}/task`).catch(() => null),
    ]);
    if (comm !== null && cmdline !== null && tids !== null) out.push({ pid, comm: comm.trim(), cmdline: cmdline.split('\0').join(' '), tids: tids.map(Number) });
  }));
  return out;
}

// Sets the affinity of every thread it is given. One python3 process for all of them: Firefox's
// tree has about 200 threads, and a taskset per thread (a fork and an exec each) took 1.8 s of the
// quiet phase per pinning. Its argument is [[cores, tids], ...], each core list once, so that it
// stays small on a machine with many cores.
const SET_AFFINITY = `import json, os, sys
failed = []
for cores, tids in json.loads(sys.argv[1]):
    for tid in tids:
        try:
            os.sched_setaffinity(tid, cores)
        except OSError:
            failed.append(tid)
print(json.dumps(failed))`;

/**
 * Gives each group's threads its cores: groups is [[cores, tids], ...]. Returns the threads it
 * could not set that still exist (a thread that ended meanwhile is not a failure).
 */
async function setAffinity(groups) {
  if (!groups.some(([, tids]) => tids.length)) return [];
  // -I -S: no user site and no site module, which make up most of python3's start here.
  const { stdout } = await run('python3', ['-I', '-S', '-c', SET_AFFINITY, JSON.stringify(groups)], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout).filter((tid) => existsSync(`/proc/${tid}`));
}

/** The cores this process may run on, from /proc/self/status (a container may allow fewer than the machine has). */
async function allowedCores() {
  const status = await readFile('/proc/self/status', 'utf8').catch(() => '');
  const list = status.match(/^Cpus_allowed_list:\s*(\S+)/m)?.[1] ?? '';
  return list.split(',').filter(Boolean).flatMap((part) => {
    const [a, b = a] = part.split('-').map(Number);
    return Array.from({ length: b - a + 1 }, (_, k) => a + k);
  });
}

/**
 * Pins `engine`'s page main threads (every page process's, as the engine keeps spares) to the
 * first core this process may use and every other thread of this process's tree to the rest.
 * Call it once the timed page is open: a thread started later takes its starter's cores (one the
 * page's main thread starts, such as a Web Worker, shares the page's core). Returns { pinned,
 * why, core, pages, others, release }: release() gives every thread of the tree the cores this process
 * had before.
 */
export async function pinPage(engine) {
  const none = (why) => ({ pinned: false, why, pages: 0, others: 0, release: async () => {} });
  if (process.platform !== 'linux') return none('not Linux');
  const cores = await allowedCores();
  if (cores.length < 2) return none(`${cores.length} core${cores.length === 1 ? '' : 's'} allowed`);
  const release = async () => { await setAffinity([[cores, (await ownTree()).flatMap((p) => p.tids)]]); };
  const tree = await ownTree();
  const pages = tree.filter(PAGE_PROCESS[engine]);
  if (!pages.length) return none(`no ${engine} page process found`);
  const pageTids = new Set(pages.map((p) => p.pid));
  const tids = tree.flatMap((p) => p.tids);
  const others = tids.filter((tid) => !pageTids.has(tid));
  let failed;
  try {
    failed = await setAffinity([[[cores[0]], [...pageTids]], [cores.slice(1), others]]);
  } catch (error) {
    await release().catch(() => {});
    // Missing python3 (ENOENT), or the last line of its traceback.
    const why = error.code === 'ENOENT' ? 'python3 missing' : String(error.stderr ?? error.message).trim().split('\n').at(-1);
    return none(`could not set the threads' cores: ${why}`);
  }
  if (failed.some((tid) => pageTids.has(tid))) {
    await release();
    return none(`could not pin ${failed.filter((tid) => pageTids.has(tid)).length} page thread(s)`);
  }
  return { pinned: true, why: '', core: cores[0], pages: pageTids.size, others: others.length - failed.length, release };
}
