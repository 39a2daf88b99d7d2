// The attention step's drawn maps, kept per (family, n, causal, and the head where heads differ),
// the most recently used last: { cells, limit, pixels, mask } (limit and pixels are worked out
// when a map is first shown). After a change the other families' maps for the same n and mask,
// then every family's with the mask toggled, are computed in idle time, one core call per idle
// slot, so that switching family (A or B) or the mask costs a paint, not a core call. The cache
// holds two masks' worth of every family.
import { FAMILIES } from '../../families.js';

const later = globalThis.requestIdleCallback
  ? (fn) => { const id = requestIdleCallback(fn, { timeout: 500 }); return () => cancelIdleCallback(id); }
  : (fn) => { const id = setTimeout(fn, 30); return () => clearTimeout(id); };

/**
 * @param {() => {key: string}[]} wanted  the maps the idle work aims at, most wanted first
 * @param {(map: {key: string}) => object} draw  computes one of them: { cells }, coloured
 */
export function mapCache(wanted, draw) {
  const kept = new Map();
  const KEEP = 2 * FAMILIES.length;
  let idle = null;

  const keep = (k, entry) => {
    kept.delete(k);
    kept.set(k, entry);
    if (kept.size > KEEP) {
      // The oldest map no longer aimed at (another n or head), else the oldest.
      const aimed = new Set(wanted().map((w) => w.key));
      const old = [...kept.keys()].find((x) => !aimed.has(x)) ?? kept.keys().next().value;
      kept.delete(old);
    }
    return entry;
  };

  /** Computes the next wanted map that is not kept, in an idle slot, then the one after. */
  function prefetch() {
    idle?.();
    idle = null;
    const next = wanted().find((w) => !kept.has(w.key));
    if (!next) return;
    idle = later(() => {
      idle = null;
      keep(next.key, draw(next));
      prefetch();
    });
  }

  /** Stops the idle work until the next prefetch(). */
  function pause() {
    idle?.();
    idle = null;
  }

  return { get: (k) => kept.get(k), keep, prefetch, pause };
}
