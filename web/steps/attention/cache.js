// The attention step's drawn maps, kept per (family, n, causal, and the head where heads differ),
// the most recently used last: { cells, limit, pixels, mask } (limit and pixels are worked out
// when the idle work draws a map, or when a map a change or a fill kept is first shown). After a
// change the other families' maps for the same n and mask, then every family's with the mask
// toggled, are computed in idle time, one core call per idle slot (a long map takes several), so
// that switching family (A or B) or the mask costs a paint, not a core call. The cache holds two
// masks' worth of every family.
import { FAMILIES } from '../../families.js';
import { whenIdle } from '../../kit/idle.js';

const later = (fn) => whenIdle(fn, { timeout: 500, fallback: 30 });

/**
 * @param {() => {key: string}[]} wanted  the maps the idle work aims at, most wanted first
 * @param {(map: {key: string}) => object | null} draw  computes (part of) one of them: { cells },
 *   coloured, or null when it needs another idle slot (it is then asked for the same map again,
 *   unless a change made another map more wanted)
 * @param {(entry: object) => void} drop  told of each map the cache lets go
 */
export function mapCache(wanted, draw, drop = () => {}) {
  const kept = new Map();
  const KEEP = 2 * FAMILIES.length;
  let idle = null;

  const keep = (k, entry) => {
    const before = kept.get(k);
    kept.delete(k);
    kept.set(k, entry);
    if (before && before !== entry) drop(before);
    if (kept.size > KEEP) {
      // The oldest map no longer aimed at (another n or head), else the oldest.
      const aimed = new Set(wanted().map((w) => w.key));
      const old = [...kept.keys()].find((x) => !aimed.has(x)) ?? kept.keys().next().value;
      drop(kept.get(old));
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
      const entry = draw(next);
      if (entry) keep(next.key, entry);
      prefetch();
    });
  }

  /** Stops the idle work until the next prefetch(). */
  function pause() {
    idle?.();
    idle = null;
  }

  const holds = (entry) => [...kept.values()].includes(entry);
  return { get: (k) => kept.get(k), holds, keep, prefetch, pause };
}
