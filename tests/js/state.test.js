// web/state.js: a step's URL parameters read back from the query string, bad values clamped or
// dropped to the default, and an enum's aliases (an old URL's name for a value) read as that value.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { clampParam, readParams } from '../../web/state.js';

const family = { type: 'enum', values: ['none', 't5', 'rope'], default: 'rope', aliases: { relative: 't5' } };

test('an enum takes its values, and an alias as the value it names', () => {
  for (const v of family.values) assert.equal(clampParam(family, v), v);
  assert.equal(clampParam(family, 'relative'), 't5');
  assert.deepEqual(readParams({ family, versus: family }, '?family=relative&versus=none'), { family: 't5', versus: 'none' });
});

test('an unknown name, an empty one and an inherited key fall back to the default', () => {
  for (const raw of ['T5', 'relative ', '', null, 'constructor', 'toString', '__proto__']) {
    assert.equal(clampParam(family, raw), 'rope', JSON.stringify(raw));
  }
  const plain = { type: 'enum', values: [16, 32], default: 32 };
  assert.equal(clampParam(plain, '16'), 16);
  assert.equal(clampParam(plain, 'relative'), 32);
});

test('numbers are clamped to their range and rounded when integers; bools read 1/0/true/false', () => {
  const i = { type: 'int', min: 0, max: 10, default: 3 };
  assert.equal(clampParam(i, '12'), 10);
  assert.equal(clampParam(i, '-4'), 0);
  assert.equal(clampParam(i, '2.6'), 3);
  assert.equal(clampParam(i, 'abc'), 3);
  const b = { type: 'bool', default: true };
  assert.equal(clampParam(b, '0'), false);
  assert.equal(clampParam(b, 'false'), false);
  assert.equal(clampParam(b, 'yes'), true);
});
