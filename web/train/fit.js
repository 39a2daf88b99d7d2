// Whether a run learned its task: the fit rule of the experiment, for the reference run
// (web/tools/experiment.mjs writes the flag into the file) and for the reader's own runs
// (records.js, exchange.js) alike. A run fits when its exact match is at least FIT_EXACT at every
// training length; one that does not fit did not learn the task, and its accuracy past the
// training lengths says nothing about generalising it.

export const FIT_EXACT = 0.95;

/**
 * Does a run fit? accuracy: [{ length, exact }] with exact a share of the test set; trainLengths:
 * the lengths it trained on. A training length the run was not scored at does not count as fit.
 */
export function fitOf(accuracy, trainLengths) {
  return trainLengths.length > 0 && trainLengths.every((n) => {
    const a = accuracy.find((x) => x.length === n);
    return a !== undefined && a.exact >= FIT_EXACT;
  });
}
