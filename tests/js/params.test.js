// kit/params.js: a step's parameters declared once. Bounds may be functions of the values read
// before them; the URL's reading (web/state.js), the setter's settling and the sliders all use
// the same table, so every step's declared defaults and any URL land inside the declared ranges.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

import { bounds, settleNumber, settleParams } from '../../web/kit/params.js';
import { readParams } from '../../web/state.js';

// The code step fetches its program templates beside its module (a top-level await); in Node
// that is a file: URL, which fetch does not read.
const fetchUrl = globalThis.fetch;
globalThis.fetch = async (url) => (String(url).startsWith('file:')
  ? { ok: true, text: () => readFile(new URL(url), 'utf8') }
  : fetchUrl(url));
const { STEPS } = await import('../../web/steps/index.js');
const modules = await Promise.all(STEPS.map(async (s) => [s.id, (await s.load()).params]));

test('a bound may be a function of the values before it; step puts a value on a grid from min', () => {
  const params = {
    len: { type: 'int', min: 32, max: 2048, step: 32, default: 1024 },
    dist: { type: 'int', min: 0, max: (v) => v.len - 1, default: 3 },
  };
  assert.deepEqual(bounds(params.dist, { len: 64 }), { min: 0, max: 63, step: 1 });
  assert.equal(settleNumber(params.len, 1000, {}), 992);     // 32 + 30·32
  assert.equal(settleNumber(params.len, 1009, {}), 1024);
  assert.equal(settleNumber(params.len, 5, {}), 32);
  assert.equal(settleNumber(params.len, 99999, {}), 2048);
  assert.deepEqual(settleParams(params, { len: 70, dist: 500 }), { len: 64, dist: 63 });
  assert.deepEqual(readParams(params, '?len=100&dist=9999'), { len: 96, dist: 95 });
  assert.deepEqual(readParams(params, '?len=40'), { len: 32, dist: 3 });
  // A default outside a dependent bound is settled too.
  assert.deepEqual(readParams({ n: params.len, i: { type: 'int', min: 0, max: (v) => v.n - 1, default: 100 } }, '?n=32'), { n: 32, i: 31 });
});

test("every step's defaults lie inside its declared ranges and on their grids", () => {
  for (const [id, params] of modules) {
    const defaults = Object.fromEntries(Object.entries(params).map(([k, s]) => [k, s.default]));
    assert.deepEqual(settleParams(params, { ...defaults }), defaults, id);
    assert.deepEqual(readParams(params, ''), defaults, id);
  }
});

test("any URL gives every step values inside its ranges, and settling them again changes nothing", () => {
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (const [id, params] of modules) {
    for (let trial = 0; trial < 200; trial++) {
      const query = new URLSearchParams();
      for (const [k, s] of Object.entries(params)) {
        if (s.type === 'enum') query.set(k, String(s.values[Math.floor(random() * s.values.length)]));
        else if (s.type === 'bool') query.set(k, random() < 0.5 ? '1' : '0');
        else query.set(k, String(Math.round((random() - 0.25) * 4 * 2048) / (random() < 0.2 ? 7 : 1)));
      }
      const values = readParams(params, `?${query}`);
      for (const [k, s] of Object.entries(params)) {
        if (s.type !== 'int' && s.type !== 'number') continue;
        const { min, max, step } = bounds(s, values);
        const where = `${id} ${k}=${values[k]} from ?${query}`;
        assert.ok(values[k] >= min && values[k] <= max, where);
        if (s.type === 'int') assert.ok(Number.isInteger(values[k]), where);
        if (s.step) assert.equal((values[k] - min) % step, 0, where);
      }
      assert.deepEqual(settleParams(params, { ...values }), values, `${id} ?${query}`);
    }
  }
});
