// A per-step series shown as at most `points` points: the mean of each of `points` consecutive
// windows, placed at the window's last step. web/tools/experiment.mjs stores the reference run's
// curves through it too, so a reader's run and the reference run are drawn alike.
export function windowedCurve(series, points = 200) {
  const n = series.length;
  const windows = Math.min(points, n);
  const steps = new Array(windows);
  const values = new Array(windows);
  for (let w = 0; w < windows; w++) {
    const from = Math.floor((w * n) / windows);
    const to = Math.floor(((w + 1) * n) / windows);
    let sum = 0;
    for (let i = from; i < to; i++) sum += series[i];
    steps[w] = to;
    values[w] = sum / (to - from);
  }
  return { steps, values };
}
