// The seeded token contents every familyAttention call of the attention step reads
// (core.familyContent), drawn once for the longest length shown so far and handed to each call
// cut to n (a row depends only on its position): the core keeps no contents between calls, and
// drawing them anew would cost more than the map. The learned stand-in table is drawn only for a
// family that reads it.
import { familyReadsTable } from '../../families.js';

/**
 * (family, n) => the options queryContent, keyContent (and learnedTable) for one call. Its
 * `reach(n, learned)` draws the rows up to n ahead of need, the learned table too when asked (the
 * step does it for its longest length in idle time: drawing 2,048 rows of each kind inside the
 * change that first asks for them cost 10-15 ms).
 */
export function heldContents(core, dim, seed) {
  const held = { n: 0, query: null, key: null, learned: null };
  const reach = (n, learned = false) => {
    if (held.n < n) {
      const draw = (which) => core.familyContent(which, n, dim, { seed });
      Object.assign(held, { n, query: draw('query'), key: draw('key'), learned: null });
    }
    if (learned) held.learned ??= core.familyContent('learned', held.n, dim, { seed });
  };
  const contents = (family, n) => {
    reach(n);
    const cut = (rows) => rows.subarray(0, n * dim);
    const given = { queryContent: cut(held.query), keyContent: cut(held.key) };
    if (!familyReadsTable(family)) return given;
    held.learned ??= core.familyContent('learned', held.n, dim, { seed });
    return { ...given, learnedTable: cut(held.learned) };
  };
  contents.reach = reach;
  return contents;
}
