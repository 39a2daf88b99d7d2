// The Web Worker that trains: one job at a time, sent by runner.js.
//   in:  { type: 'load', baseUrl, simd } → { type: 'ready', simd } or { type: 'error', message }
//        { type: 'start', id, config }   → { type: 'progress', id, ...progress } per slice, then
//                                           { type: 'result', id, result } (buffers transferred)
//                                           or { type: 'error', id, message }
//        { type: 'pause' }                → { type: 'paused' } once no slice runs: every progress
//                                           message of the job was posted before it
//        { type: 'resume' } | { type: 'cancel' }  the current job
import { loadTrainer } from '../../wasm/train.js';
import { jobControl, messageTurn, runJob, transferables } from './job.js';

let trainer = null;
let control = null;

async function load({ baseUrl, simd }) {
  try {
    trainer = await loadTrainer({ baseUrl, simd });
    self.postMessage({ type: 'ready', simd: trainer.simd });
  } catch (e) {
    self.postMessage({ type: 'error', message: String(e?.message ?? e) });
  }
}

async function start({ id, config }) {
  control = jobControl();
  try {
    const result = await runJob(trainer, config, {
      control,
      nextTurn: messageTurn,
      onProgress: (p) => self.postMessage({ type: 'progress', id, ...p }),
    });
    self.postMessage({ type: 'result', id, result }, transferables(result));
  } catch (e) {
    self.postMessage({ type: 'error', id, message: String(e?.message ?? e) });
  } finally {
    control = null;
  }
}

self.onmessage = ({ data }) => {
  if (data.type === 'load') load(data);
  else if (data.type === 'start') start(data);
  else if (data.type === 'pause') {
    // This handler runs between slices (job.js yields a turn after each), so the slice that was
    // stepping has already posted its progress: the acknowledgement arrives after it.
    control?.pause();
    self.postMessage({ type: 'paused' });
  }
  else if (data.type === 'resume') control?.resume();
  else if (data.type === 'cancel') control?.cancel();
};
