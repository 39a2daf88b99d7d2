// How fast one core ran JavaScript just before npm test measured its update tables
// (tests/quiet/): a fixed single-threaded workload (typed-array arithmetic, Math.sin, number
// formatting) in Node's V8. A rough gauge of the machine, not of the browsers' engines, their
// DOM or WebAssembly. The update budgets are absolute milliseconds, and the same code's tables
// have differed by 2 to 6 times from one session's machine to the next (both with 2 vCPUs), so
// perf-report.mjs prints this above them, to help tell a slower machine from slower code.
// Written to tests/out/perf/quiet/host.json; a gauge, not a test: run.sh goes on if it fails.
import { mkdir, writeFile } from 'node:fs/promises';

function work() {
  const a = new Float64Array(1 << 16);
  let sum = 0;
  for (let round = 0; round < 120; round++) {
    for (let i = 0; i < a.length; i++) {
      a[i] = Math.sin(i * 0.001 + round) * a[(i * 7) & 0xffff] + 1;
      sum += a[i];
    }
  }
  let text = '';
  for (let i = 0; i < 400000; i++) text += (i * 1.37).toFixed(2);
  return sum + text.length;
}

let sink = work();  // compiled and warm before the timed runs
const times = [];
for (let k = 0; k < 5; k++) {
  const start = performance.now();
  sink += work();  // used below, so no engine may drop the work
  times.push(performance.now() - start);
}
times.sort((x, y) => x - y);
const dir = new URL('../out/perf/quiet/', import.meta.url);
await mkdir(dir, { recursive: true });
await writeFile(new URL('host.json', dir), JSON.stringify({ medianMs: times[2], times, sink }));
console.log(`host speed: the fixed workload took ${times[2].toFixed(0)} ms (median of 5; lower is faster)`);
