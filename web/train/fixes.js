// The fixes for length generalisation the train step compares, as trainer config fields, for the
// reference run (web/tools/experiment.mjs) and the reader's runs (training.js) alike:
//   random  randomised positions (Ruoss et al., ACL 2023): each sequence's position ids are a
//           sorted draw from [0, M), in training and in testing; M is M_FACTOR times the
//           positions of the longest test sequence (they train on lengths up to 40, test up to
//           500 and draw from 2,048);
//   ssmax   scalable softmax (Nakanishi 2025), the log-length attention temperature of Llama 4:
//           every score times a learned s_h · ln(number of keys).
export const FIX_NAMES = ['plain', 'random', 'ssmax'];
export const M_FACTOR = 4;

/** Positions of a task's longest sequence at task length n (core/train/tasks.cpp sequenceTokens). */
export function sequenceTokens(task, n, offset = 3) {
  if (task === 'retrieval') return n + 4;
  if (task === 'offset') return offset + n;
  return 2 * n + 2;
}

/**
 * The fields a fix adds to a config: { task, trainLengths, testLengths?, offset? } (testLengths
 * absent: 1 .. 4 × the longest training length, the trainer's default).
 */
export function fixFields(fix, { task, trainLengths = [1, 2, 3, 4, 5, 6, 7, 8], testLengths, offset }) {
  if (fix === 'plain') return {};
  if (fix === 'ssmax') return { scalableSoftmax: true };
  if (fix === 'random') {
    const longest = Math.max(...trainLengths, ...(testLengths?.length ? testLengths : [4 * Math.max(...trainLengths)]));
    return { randomPositions: M_FACTOR * sequenceTokens(task, longest, offset) };
  }
  throw new RangeError(`fix must be one of ${FIX_NAMES.join(', ')}, got ${fix}`);
}

/** The fix a config has switched on ('plain' when none; the first when both). */
export const fixOf = (config) => (config.randomPositions > 0 ? 'random' : config.scalableSoftmax ? 'ssmax' : 'plain');
