// One training job, in slices: steps for about `sliceMs` milliseconds, then a report with only
// the log entries that are new, then a turn of the event loop (where a pause, a resume or a
// cancel arrives). After the last step, or a cancel, or a divergence, the run is scored on its
// test set, one length per slice, so even a cancelled job ends with what it has, evaluated.
// The same loop runs in a Web Worker (worker.js) and, where Workers cannot start, on the page's
// own thread (runner.js); only how a turn is taken differs.

const now = () => performance.now();

/**
 * A pause / resume / cancel switch the loop checks between slices.
 * @returns {{paused:boolean, cancelled:boolean, pause():void, resume():void, cancel():void, wait():Promise<void>}}
 */
export function jobControl() {
  let wake = null;
  const c = {
    paused: false,
    cancelled: false,
    pause() { c.paused = true; },
    resume() {
      c.paused = false;
      wake?.();
    },
    cancel() {
      c.cancelled = true;
      wake?.();
    },
    /** Resolves on the next resume or cancel. */
    wait: () => new Promise((resolve) => { wake = () => { wake = null; resolve(); }; }),
  };
  return c;
}

/**
 * Runs `config` on trainer `tr` (wasm/train.js loadTrainer()). onProgress({ steps, total,
 * log: { from, loss, exact } (new entries only), stepsPerSecond, secondsLeft, phase:
 * 'train'|'evaluate' }) after each slice. nextTurn() yields to the event loop. Resolves to the
 * trainer's result shape ({ config, status, divergence, steps, log, accuracy, parameters,
 * seconds }), as train() in wasm/train.js returns it.
 */
export async function runJob(tr, config, { control, onProgress = () => {}, nextTurn, sliceMs = 30 }) {
  const run = tr.createRun(config);
  try {
    const start = now();
    let status = run.status();
    const total = status.config.steps;
    let sent = 0;
    let busy = 0;  // milliseconds spent stepping, so a pause does not count against steps/s
    const held = async () => {
      while (control.paused && !control.cancelled) await control.wait();
    };
    // A turn first: on the page's own thread the caller has just redrawn the step in this task,
    // and a slice on top of that made one task of about 70 ms.
    await nextTurn();
    while (!status.finished && !control.cancelled) {
      await held();
      if (control.cancelled) break;
      const from = now();
      do run.step(1);
      while (!run.status().finished && now() - from < sliceMs);
      busy += now() - from;
      status = run.status();
      const log = run.log(sent);
      const rate = status.steps / (busy / 1000);
      onProgress({
        phase: 'train', steps: status.steps, total, stepsPerSecond: rate,
        secondsLeft: status.finished ? 0 : (total - status.steps) / rate,
        log: { from: sent, loss: log.loss, exact: log.exact },
      });
      sent = status.steps;
      await nextTurn();
    }
    const accuracy = [];
    for (const length of status.config.testLengths) {
      await held();  // a cancel does not skip the scoring: the result keeps what was done
      accuracy.push(run.evaluate(length));
      onProgress({ phase: 'evaluate', steps: status.steps, total, evaluated: accuracy.length, lengths: status.config.testLengths.length });
      await nextTurn();
    }
    const log = run.log(0);
    return {
      config: status.config,
      status: status.diverged ? 'diverged' : control.cancelled && status.steps < total ? 'cancelled' : 'done',
      divergence: status.divergence,
      steps: status.steps,
      log: { loss: log.loss, exact: log.exact },
      accuracy,
      parameters: run.parameters(),
      seconds: (now() - start) / 1000,
    };
  } finally {
    run.dispose();
  }
}

/** The buffers of a result that can move to another thread instead of being copied. */
export function transferables(result) {
  return [result.log.loss.buffer, result.log.exact.buffer, result.parameters.values.buffer];
}

/** A turn of the event loop, without setTimeout's clamping: a message to ourselves. */
export function messageTurn() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(0);
  });
}
