// Step "code"'s program templates (web/steps/code/snippets/*.py), straight from their files: each
// one filled with settings covering every quantity and scaling and run with Debian's python3
// (numpy and torch are installed by wasm/tools/setup.sh); what it prints must equal the page's
// text for the core's value (computed here with the step's own model and number format)
// and lie within half a last digit of the formula in tests/expect/code.js. Also: the folder holds
// exactly the templates the step names, and every placeholder is filled or named in a RangeError.
import assert from 'node:assert/strict';
import { runPython } from './python.js';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import { loadPosenc } from '../../wasm/posenc.js';
import { pythonFixed } from '../../web/kit/format.js';
import { codeModel } from '../../web/steps/code/model.js';
import { DIGITS, QUANTITIES, SCALINGS, SETUP } from '../../web/steps/code/setup.js';
import { LIBRARIES, TEMPLATE_NAMES, fillTemplate, placeholdersOf, snippet } from '../../web/steps/code/snippets.js';
import { own } from '../expect/code.js';

const DIR = new URL('../../web/steps/code/snippets/', import.meta.url);
const templates = Object.fromEntries(TEMPLATE_NAMES.map((n) => [n, readFileSync(new URL(n, DIR), 'utf8')]));

// Settings per quantity (the rest as the step's defaults have them); every scaling at two factors.
const DEFAULTS = {
  pos: 10, dim: 4, wdim: 2, width: 16, i: 3, j: 8, m: 3, n: 7, rel: -20, bidir: true, heads: 8, head: 3, dist: 5,
  scaling: 'yarn', factor: 8, pair: 40,
};
const STATES = [
  { quantity: 'pe', pos: 0, dim: 0 }, { quantity: 'pe', pos: 49, dim: 19 }, { quantity: 'pe', pos: 23, dim: 6 },
  { quantity: 'wavelength', wdim: 0 }, { quantity: 'wavelength', wdim: 15 },
  { quantity: 'dot', width: 16, i: 3, j: 8 }, { quantity: 'dot', width: 8, i: 19, j: 0 },
  { quantity: 'rope', m: 3, n: 7 }, { quantity: 'rope', m: 19, n: 0 },
  { quantity: 'partial-rope', m: 3, n: 7 }, { quantity: 'partial-rope', m: 0, n: 19 },
  { quantity: 't5', rel: -20, bidir: true }, { quantity: 't5', rel: 64, bidir: true }, { quantity: 't5', rel: -200, bidir: false },
  { quantity: 't5', rel: 7, bidir: false },
  { quantity: 'alibi', heads: 8, head: 3, dist: 5 }, { quantity: 'alibi', heads: 12, head: 11, dist: 20 },
  ...SCALINGS.flatMap((scaling) => [{ quantity: 'scaled', scaling, factor: 4, pair: 17 }, { quantity: 'scaled', scaling, factor: 32, pair: 58 }]),
];

/** Runs each program in a fresh namespace of one python3 process; returns what each printed. */

test('the snippets folder holds exactly the templates the step names, one per quantity (and scaling) and library', () => {
  assert.deepEqual(readdirSync(DIR).sort(), [...TEMPLATE_NAMES].sort());
  assert.equal(TEMPLATE_NAMES.length, LIBRARIES.length * (QUANTITIES.length - 1 + SCALINGS.length));
});

test('every placeholder is filled; a missing value is a RangeError naming it', () => {
  for (const [name, text] of Object.entries(templates)) {
    const keys = placeholdersOf(text);
    assert.ok(keys.includes('digits') || name.startsWith('t5.'), `${name} prints with the quantity's digits`);
    const settings = Object.fromEntries(keys.map((k) => [k, 1]));
    assert.doesNotMatch(fillTemplate(text, settings), /\$\{/, name);
    for (const k of keys) {
      const { [k]: _, ...without } = settings;
      assert.throws(() => fillTemplate(text, without), (e) => e instanceof RangeError && e.message.includes(`"${k}"`), `${name} without ${k}`);
    }
  }
  assert.throws(() => snippet(templates, 'numpy', 'scaled', { scaling: 'cubic' }), (e) => e instanceof RangeError && /scaled-cubic\.numpy\.py/.test(e.message));
});

test('each template, filled and run with python3, prints the page\'s text for the core\'s value', async (t) => {
  const core = await loadPosenc();
  const fmt = pythonFixed('en');
  const { compute } = codeModel(core);
  const cases = STATES.map((state) => {
    const values = { ...DEFAULTS, ...state };
    const q = state.quantity;
    const { value } = compute[q](values);
    const want = own[q](values);
    const text = fmt(value, DIGITS[q]);
    // The core's value is the formula's (tests/expect/code.js) to within half a shown digit.
    assert.ok(Math.abs(Number(text) - want) <= 0.5 * 10 ** -DIGITS[q] + 1e-9, `${JSON.stringify(state)}: ${text} vs ${want}`);
    const p = { ...values, ...SETUP[q], digits: DIGITS[q] };
    return { state, text, programs: LIBRARIES.map((lib) => snippet(templates, lib, q, p)) };
  });
  const printed = await Promise.all(LIBRARIES.map((_, k) => runPython(cases.map((c) => c.programs[k]))));
  LIBRARIES.forEach((lib, k) => cases.forEach((c, n) => {
    assert.equal(printed[k][n], `${c.text}\n`, `${lib} for ${JSON.stringify(c.state)}:\n${c.programs[k]}`);
  }));
  const used = new Set(cases.flatMap((c) => LIBRARIES.map((lib) => (c.state.quantity === 'scaled' ? `scaled-${c.state.scaling}` : c.state.quantity) + `.${lib}.py`)));
  assert.deepEqual([...used].sort(), [...TEMPLATE_NAMES].sort(), 'every template ran');
  t.diagnostic(`ran ${cases.length} NumPy and ${cases.length} PyTorch programs`);
});
