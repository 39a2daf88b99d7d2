// An engine's frame floor on this machine, before any page of ours is involved: a blank page
// changes one character per frame, and the CPU time of every thread on the machine (the
// engine's, Xvfb's, Node's) is summed over those frames. Without a GPU, the engine rasterizes and
// composites on the CPU (under WebKit: Skia on the CPU with compositing off, as timed; Skia's GPU
// backend through Mesa's llvmpipe in its default mode; Software WebRender under Firefox;
// Chromium's software compositor) on the machine's two cores: this floor is the CPU the machine
// spends per frame before our page does anything. While the tables are timed, pin.js keeps these
// threads off the page's core. Printed beside the update tables (perf-report.mjs); reported,
// never asserted.
import { cpuSpans } from './threads.js';

export const FLOOR_FRAMES = 120;

/** In the page: sets a lone paragraph to the next digit once per frame, `frames` times. */
export async function changeOneCharacterPerFrame(frames) {
  const text = document.getElementById('floor') ?? document.body.appendChild(Object.assign(document.createElement('p'), { id: 'floor' }));
  for (let k = 0; k < frames; k++) {
    text.textContent = String(k % 10);
    await new Promise(requestAnimationFrame);
  }
}

/**
 * The floor in a page already open on about:blank, through `evaluate(fn, arg)`:
 * { frames, seconds, ran, cores, threads } (threads.js's figures; null off Linux).
 */
export async function frameFloor(evaluate) {
  await evaluate(changeOneCharacterPerFrame, 10);  // warm-up, not counted: these also create and paint the paragraph
  const cpu = cpuSpans();
  await cpu.start();
  await evaluate(changeOneCharacterPerFrame, FLOOR_FRAMES);
  await cpu.end();
  const result = cpu.result(3);
  return result && { frames: FLOOR_FRAMES, ...result };
}
