// The attention step's kept maps (web/steps/attention/cache.js) and the pool their arrays go back
// to (web/steps/attention/buffers.js), in Node: what is kept, what is let go and told, idle work
// that takes several slots, and arrays that come back only when given and only to a taker of the
// same type and length.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { arrayPool } from '../../web/steps/attention/buffers.js';
import { mapCache } from '../../web/steps/attention/cache.js';
import { FAMILIES } from '../../web/families.js';

const KEEP = 2 * FAMILIES.length;  // the cache's size: both masks of every family
const settle = () => new Promise((r) => setTimeout(r, 40));  // Node has no requestIdleCallback: the cache waits 30 ms

test('the pool hands back an array given to it, only for the same type and length, at most `keep` of each', () => {
  const pool = arrayPool(2);
  const a = pool.take(Float32Array, 16);
  assert.ok(a instanceof Float32Array && a.length === 16);
  a.fill(7);
  pool.give(a, a, null);  // twice: kept once; null: nothing
  assert.notEqual(pool.take(Float32Array, 8), a, 'another length');
  assert.notEqual(pool.take(Uint32Array, 16), a, 'another type');
  assert.equal(pool.take(Float32Array, 16), a, 'the array given back');
  assert.deepEqual([...a], Array(16).fill(7), 'given back as it was left (the pool does not clear: the taker writes every element)');
  assert.notEqual(pool.take(Float32Array, 16), a, 'taken once');
  const three = [1, 2, 3].map(() => new Uint32Array(4));
  pool.give(...three);
  const back = [pool.take(Uint32Array, 4), pool.take(Uint32Array, 4), pool.take(Uint32Array, 4)];
  assert.equal(back.filter((x) => three.includes(x)).length, 2, 'keeps two of three');
});

test('the cache keeps the most recent maps, lets the oldest not aimed at go and says so, and tells of a replaced entry', () => {
  let aimed = [];
  const dropped = [];
  const cache = mapCache(() => aimed.map((key) => ({ key })), () => assert.fail('no idle work here'), (e) => dropped.push(e));
  const entries = Array.from({ length: KEEP + 2 }, (_, k) => ({ cells: k }));
  aimed = [KEEP + 1, 0, 1].map(String);  // 0 and 1 are aimed at: 2 and 3 go first
  entries.forEach((e, k) => cache.keep(String(k), e));
  assert.deepEqual(dropped, [entries[2], entries[3]]);
  assert.equal(cache.get('2'), undefined);
  assert.equal(cache.get('0'), entries[0]);
  assert.ok(cache.holds(entries[4]) && !cache.holds(entries[2]));
  const again = { cells: 'new' };
  cache.keep('4', again);
  assert.deepEqual(dropped.slice(2), [entries[4]], 'the entry it replaced');
  cache.keep('4', again);
  assert.equal(dropped.length, 3, 'keeping the same entry again lets nothing go');
});

test('idle work: each wanted map not kept is computed; a map that needs more slots is asked for again until done', async () => {
  const asked = [];
  const wanted = ['a', 'b'].map((key) => ({ key }));
  const cache = mapCache(() => wanted, (map) => {
    asked.push(map.key);
    // 'a' takes three slots: two unfinished, then its entry.
    return map.key === 'a' && asked.length < 3 ? null : { cells: map.key };
  });
  cache.prefetch();
  for (let k = 0; k < 10 && asked.length < 4; k++) await settle();
  assert.deepEqual(asked, ['a', 'a', 'a', 'b']);
  assert.deepEqual([cache.get('a'), cache.get('b')], [{ cells: 'a' }, { cells: 'b' }]);
  cache.prefetch();
  await settle();
  assert.equal(asked.length, 4, 'all kept: nothing more to compute');
});

test('a pause stops the idle work until the next prefetch', async () => {
  const asked = [];
  const cache = mapCache(() => [{ key: 'a' }], (map) => { asked.push(map.key); return { cells: 1 }; });
  cache.prefetch();
  cache.pause();
  await settle();
  await settle();
  assert.deepEqual(asked, []);
  cache.prefetch();
  await settle();
  assert.deepEqual(asked, ['a']);
});
