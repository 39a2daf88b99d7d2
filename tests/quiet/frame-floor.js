// What a frame costs an engine on this machine before any page of ours is involved: a blank
// page changes one character per frame, and every thread's CPU time is summed over those frames.
// Where there is no GPU, the engine rasterizes and composites on the CPU (Mesa's llvmpipe under
// WebKit, WebRender's software backend under Firefox), on the same two cores as the page's main
// thread, so this floor says how much of an update's wall time is the engine's and not the
// page's. Printed beside the update tables (perf-report.mjs); a report, never a test.
import { cpuSpans } from './threads.js';

export const FLOOR_FRAMES = 120;

/** In the page: `frames` frames, each showing a different digit, alone on the page. */
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
  await evaluate(changeOneCharacterPerFrame, 10);  // the first frames also paint the page itself
  const cpu = cpuSpans();
  await cpu.start();
  await evaluate(changeOneCharacterPerFrame, FLOOR_FRAMES);
  await cpu.end();
  const result = cpu.result(3);
  return result && { frames: FLOOR_FRAMES, ...result };
}
