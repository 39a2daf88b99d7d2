// Map-sized arrays the attention step gives back once nothing reads them (a map neither kept nor
// on show, a stopped fill's unfinished maps, colours a recolour replaced), and takes again for
// the next map. At 2,048 tokens a change can make or drop several maps of 256 × 256 cells (a
// quarter of a megabyte of cells and as much of colours each). Allocated anew every time, they
// were the garbage behind the collections traced inside later changes in Chromium; reusing them
// cut the main thread's GC time (docs/benchmarks.md).
// A taken array holds whatever it held before: the taker writes every element.

/** A pool keeping at most `keep` free arrays of each type and length. */
export function arrayPool(keep = 8) {
  const free = new Map();  // "Float32Array:65536" → arrays
  const key = (Type, length) => `${Type.name}:${length}`;
  return {
    /** A free array of this type and length, or a new one. */
    take(Type, length) {
      return free.get(key(Type, length))?.pop() ?? new Type(length);
    },
    /** Gives arrays back; the caller no longer reads or shows them. */
    give(...arrays) {
      for (const a of arrays) {
        if (!a) continue;
        const k = key(a.constructor, a.length);
        const list = free.get(k) ?? free.set(k, []).get(k);
        if (list.length < keep && !list.includes(a)) list.push(a);
      }
    },
  };
}
