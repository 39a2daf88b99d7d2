// The attention step's map store: the maps kept per family (the
// cache and its idle prefetch, attention/cache.js), their arrays (a pool, attention/buffers.js),
// and the fill that computes a long map over several frames instead of inside one change. The
// view (attention.js) asks it for maps by key and shows them; the store never draws.
import { FAMILIES, familyPerHead } from '../../families.js';
import { arrayPool } from './buffers.js';
import { mapCache } from './cache.js';
import { cellPixels, scaleTop } from './colours.js';
import { grid } from './model.js';

// From this length a map the page has not kept is filled over the next frames, a slice of rows
// at a time, instead of inside the change (256 rows of 1,024 or 2,048 keys cost more than a
// frame); the change itself computes only query i's exact row, for A and for B. Shorter maps are
// computed at once. The timed update is the change alone: the fill runs in the frames after it.
export const FILL_FROM = 1024;
const FILL_ROWS = 64;     // rows per core call while filling
const FILL_SLICE_MS = 6;  // while filling, each frame starts core calls until this many ms have passed (the last may run past it)

/**
 * @param {{ values: object, run: (family: string, g: object, n: number, rows: Int32Array, causal: boolean) => object,
 *   maskColour: () => number, shown: () => ({cells?: Float32Array, pixels?: Uint32Array} | null),
 *   busy: (on: boolean) => void }} deps
 *   values: the step's values (n, causal, head are read); run: one core call for the given
 *   rows; maskColour: the masked cells' colour now; shown: the arrays on screen, never given
 *   back while shown; busy: told when a fill starts and ends.
 */
export function mapStore({ values, run, maskColour, shown, busy }) {
  // The maps' cells and colours come from a pool and go back once nothing reads them: not kept,
  // not on show, not part of an unfinished map. give() skips the arrays on show, because the
  // cache can let a map go while it is still shown (a change of ALiBi's head or of the length
  // evicts it in render, before the view replaces it; so can a fill); the view gives them back
  // once the next map is drawn. Reused earlier, the shown cells would change under Save CSV and
  // the hover line, and the heatmap would be handed the array it last uploaded as new colours,
  // and skip the upload.
  const pool = arrayPool();
  const give = (...arrays) => {
    const now = shown();
    pool.give(...arrays.filter((a) => a && a !== now?.cells && a !== now?.pixels));
  };
  // Keyed by family, n, mask and, where heads differ, head.
  const key = (f, causal = values.causal) => [f, values.n, causal, familyPerHead(f) ? values.head : ''].join();
  // The colours of a map on its own scale, in the current mask colour.
  const coloured = (entry, g, causal) => {
    entry.limit ??= scaleTop(entry.cells);
    const mask = maskColour();
    if (entry.mask !== mask) {
      give(entry.pixels);
      entry.pixels = cellPixels(entry.cells, entry.limit, g, causal, mask, pool.take(Uint32Array, entry.cells.length));
      entry.mask = mask;
    }
    return entry;
  };
  // What the idle work aims at: every family, both masks, at the current n (and head).
  const wanted = () => [values.causal, !values.causal].flatMap((causal) => FAMILIES.map((family) => ({
    key: key(family, causal), family, causal,
  })));
  // Idle work: a short map in one core call; from FILL_FROM, FILL_ROWS rows per idle slot, so
  // that a change waits behind a quarter of a map at most.
  let partial = null;  // the long map the idle work is part-way through: { key, cells, next }
  const maps = mapCache(wanted, ({ key: k, family, causal }) => {
    const n = values.n;
    const g = grid(n);
    if (n < FILL_FROM) return coloured({ cells: run(family, g, n, g.rows, causal).cells }, g, causal);
    const R = g.rows.length;
    const C = g.edges.length - 1;
    if (partial?.key !== k) {
      give(partial?.cells);
      partial = { key: k, cells: pool.take(Float32Array, R * C), next: 0 };
    }
    const end = Math.min(R, partial.next + FILL_ROWS);
    partial.cells.set(run(family, g, n, g.rows.subarray(partial.next, end), causal).cells, partial.next * C);
    partial.next = end;
    if (end < R) return null;
    const { cells } = partial;
    partial = null;
    return coloured({ cells }, g, causal);
  }, (entry) => give(entry.cells, entry.pixels));

  // The map being filled over several frames: its key and how to stop it.
  let filling = null;

  /**
   * Computes the maps of `families` that are not kept (at the current n, mask and head),
   * FILL_ROWS rows per core call, each frame starting calls until FILL_SLICE_MS have passed (the
   * last may run past it). Each finished map is kept; when all are done, draw() shows the map
   * for `fillKey`. A change to another map stops the fill first (stopUnless), and the unfinished
   * maps' arrays go back to the pool. Until the draw, busy(true).
   */
  function fill(fillKey, families, draw) {
    filling?.stop();
    const n = values.n;
    const causal = values.causal;
    const g = grid(n);
    const R = g.rows.length;
    const C = g.edges.length - 1;
    const jobs = [...new Set(families)].filter((f) => !maps.get(key(f))).map((f) => ({ f, k: key(f), cells: pool.take(Float32Array, R * C), next: 0 }));
    let frame = 0;
    const stop = () => {
      cancelAnimationFrame(frame);
      give(...jobs.map((job) => job.cells));  // a stopped fill's unfinished maps
      filling = null;
      busy(false);
    };
    const step = () => {
      const start = performance.now();
      while (jobs.length && performance.now() - start < FILL_SLICE_MS) {
        const job = jobs[0];
        const end = Math.min(R, job.next + FILL_ROWS);
        job.cells.set(run(job.f, g, n, g.rows.subarray(job.next, end), causal).cells, job.next * C);
        job.next = end;
        if (end === R) {
          maps.keep(job.k, { cells: job.cells });
          jobs.shift();
        }
      }
      if (jobs.length) {
        frame = requestAnimationFrame(step);
        return;
      }
      stop();
      draw();
      maps.prefetch();
    };
    filling = { key: fillKey, stop };
    maps.pause();  // the idle work would compute the same maps whole
    busy(true);
    frame = requestAnimationFrame(step);
  }

  return {
    key,
    coloured,
    take: pool.take,
    give,
    get: maps.get,
    keep: maps.keep,
    holds: maps.holds,
    prefetch: maps.prefetch,
    fill,
    /** Whether a fill is under way. */
    filling: () => filling !== null,
    /** Stops a fill that is not for `wantedKey`. */
    stopUnless: (wantedKey) => { if (filling && filling.key !== wantedKey) filling.stop(); },
  };
}
