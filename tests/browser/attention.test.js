// Step 'attention' in Chromium: one attention head over one seeded token sequence for every
// position family. The page shows what web/steps/attention/model.js computes, here run in Node on
// the SIMD build as the page runs it in Chromium: the readouts, the drawn cells (Save CSV), the
// exact row, and the canvas pixels coloured from them, through changes that let maps go and
// reuse their arrays; the URL state and its clamping, the keyboard, the dark theme's mask colour;
// at 2,048 tokens the readouts, the row sums and the update times. The model's numbers against
// the formulas of core/family_attention.hpp rebuilt in float64 are tests/js/attention-model.test.js.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { startBrowser } from './browser.js';
import { readLongTasks, watchLongTasks } from './long-tasks.js';
import { downloaded, openStep, pageUrl, percentile, plotDots, readout, setSlider, updateTimes, urlParams } from './steps.js';
import { loadPosenc } from '../../wasm/posenc.js';
import { ATTENTION_FAMILIES } from '../../wasm/train.js';
import { attentionModel, grid as modelGrid } from '../../web/steps/attention/model.js';

const FAMILIES = ATTENTION_FAMILIES;  // the registry's drawn families, as the module lists them
let b;
before(async () => { b = await startBrowser({ timed: true }); });
after(async () => { await b?.close(); });

// [MODEL] ------------------------------------------------------------------------------------
// What the page must show: the step's model in Node (its own test holds it to the formulas).
const model = attentionModel(await loadPosenc({ simd: true }));
/** Scores and probabilities of query i over keys 0..n−1. */
const attentionRow = (family, n, i, { causal = true, head = 3 } = {}) => model.row(family, { n, i, head, causal });
/** The drawn grid: query rows and key bin edges, as plain arrays. */
const grid = (n) => ({ rows: Array.from(modelGrid(n).rows), edges: Array.from(modelGrid(n).edges) });

// [PAGE] -------------------------------------------------------------------------------------
const pick = (page, name, value) => page.click(`#attention .choice-item:has(input[name=${name}][value="${value}"]) label`);

async function readouts(page) {
  const out = {};
  for (const name of ['score', 'prob', 'probB', 'diff', 'top']) out[name] = await readout(page, 'attention', name);
  return out;
}

// From 1,024 tokens a map the page has not kept is filled over a few frames after the change
// (the step is data-busy meanwhile): what reads the map waits for it.
const mapDrawn = (page) => page.waitForSelector('#attention:not([data-busy])');

async function csv(page, table) {
  await mapDrawn(page);
  // The Save CSV buttons sit at the end of the Go deeper fold: opened as a reader would.
  const fold = page.locator('#attention details.deeper');
  if (!(await fold.evaluate((d) => d.open))) await fold.locator('summary').click();
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(`#attention button[data-table=${table}]`)]);
  const lines = (await downloaded(file)).toString('utf8').trim().split('\n');
  return { header: lines[0].split(','), rows: lines.slice(1).map((l) => l.split(',').map(Number)) };
}

/** The step's own URL parameters: the fold's state (csv() opens it) left out. */
async function stateParams(page) {
  const { deeper, ...params } = await urlParams(page);
  return params;
}

function near(got, want, tol, what) {
  if (want === -Infinity) return assert.equal(got, -Infinity, what);
  assert.ok(Math.abs(got - want) <= tol, `${what}: got ${got}, want ${want}`);
}

/** The shown text rounds the exact value to `digits` decimals (en). */
function shows(text, want, digits, what) {
  const shown = Number(text.replace('−', '-'));
  assert.ok(Math.abs(shown - want) <= 0.5 * 10 ** -digits + 2e-5, `${what}: shows ${text}, want ${want}`);
}

function checkReadouts(r, family, n, i, j, opts = {}) {
  const { scores, probs } = attentionRow(family, n, i, opts);
  const what = `${family} n ${n} (${i}, ${j}) causal ${opts.causal ?? true}`;
  near(r.score.value, scores[j], 2e-5, `${what} score`);
  near(r.prob.value, probs[j], 5e-6, `${what} probability`);
  if (scores[j] === -Infinity) assert.equal(r.score.text, '−∞');
  else shows(r.score.text, scores[j], 3, `${what} score text`);
  shows(r.prob.text, probs[j], 4, `${what} probability text`);
  // The most-attended key: its probability is the row's maximum (ties within float32 noise).
  assert.ok(probs[r.top.value] >= Math.max(...probs) - 1e-6, `${what}: top key ${r.top.value}`);
  return { scores, probs };
}

// RdBu, as the page's palette (web/kit/palette.js) defines it, on the step's square-root scale.
const STOPS = [[33, 102, 172], [103, 169, 207], [247, 247, 247], [239, 138, 98], [178, 24, 43]];
function colour(value, limit) {
  const shown = Math.sign(value) * Math.sqrt(Math.min(Math.abs(value) / limit, 1));
  const x = ((shown + 1) / 2) * 4;
  const k = Math.min(3, Math.floor(x));
  const f = x - k;
  return STOPS[k].map((v, c) => v + (STOPS[k + 1][c] - v) * f);
}

async function pixels(page, cells) {
  await mapDrawn(page);
  return page.evaluate((list) => {
    const canvas = document.querySelector('#attention canvas.heatmap');
    const ctx = canvas.getContext('2d');
    const C = Number(canvas.dataset.cols);
    return list.map(([r, c]) => {
      const x = Math.floor(((c + 0.5) * canvas.width) / C);
      const y = Math.floor(((r + 0.5) * canvas.height) / C);
      return [...ctx.getImageData(x, y, 1, 1).data.slice(0, 3)];
    });
  }, cells);
}

// [TESTS] ------------------------------------------------------------------------------------
test('n = 32, every family with and without the causal mask: readouts, every drawn cell and the pixels show the model', async () => {
  const n = 32;
  const [i, j] = [20, 13];
  const page = await openStep(b, 'attention', `n=${n}&i=${i}&j=${j}&causal=1&head=2`);
  for (const causal of [true, false]) {
    if (!causal) await page.click('#attention input[name=causal]');
    for (const family of FAMILIES) {
      await pick(page, 'family', family);
      assert.deepEqual((await stateParams(page)), {
        step: 'attention', family, versus: 'none', view: 'single', n: String(n), causal: causal ? '1' : '0', head: '2', i: String(i), j: String(j),
      });
      const r = await readouts(page);
      const own = checkReadouts(r, family, n, i, j, { causal, head: 2 });
      // Family B (NoPE here) is read out beside A in every view.
      const other = attentionRow('none', n, i, { causal });
      near(r.probB.value, other.probs[j], 5e-6, `${family}: B probability`);
      near(r.diff.value, own.probs[j] - other.probs[j], 1e-5, `${family}: A − B`);

      // Every cell: at n = 32 each drawn cell is one (query, key) pair.
      const cells = await csv(page, 'cells');
      assert.equal(cells.rows.length, n);
      assert.equal(cells.header.length, n + 1);
      let worst = 0;
      for (let q = 0; q < n; q++) {
        const { probs } = attentionRow(family, n, q, { causal, head: 2 });
        assert.equal(cells.rows[q][0], q);
        for (let k = 0; k < n; k++) worst = Math.max(worst, Math.abs(cells.rows[q][k + 1] - probs[k]));
      }
      assert.ok(worst < 5e-6, `${family} causal ${causal}: worst cell error ${worst}`);

      // The canvas (for three of the families, to keep the test short): a spread of cells,
      // coloured as the model's probabilities say.
      if (!['none', 't5', 'rope'].includes(family)) continue;
      const limit = Number(await page.getAttribute('#attention canvas.heatmap', 'data-limit'));
      const spots = [[0, 0], [3, 1], [9, 4], [16, 15], [25, 2], [31, 31], [30, 28], [5, 27], [12, 30], [27, 22]];
      const got = await pixels(page, spots);
      spots.forEach(([q, k], s) => {
        const want = colour(attentionRow(family, n, q, { causal, head: 2 }).probs[k], limit);
        assert.ok(want.every((v, c) => Math.abs(v - got[s][c]) <= 2), `${family} pixel (${q}, ${k}): ${got[s]} vs ${want.map(Math.round)}`);
      });
    }
  }
  // The row CSV holds the exact row of query i.
  const row = await csv(page, 'row');
  const { scores, probs } = attentionRow('alibi', n, i, { causal: false, head: 2 });
  const other = attentionRow('none', n, i, { causal: false });
  assert.deepEqual(row.header, ['key', 'score A', 'probability A', 'score B', 'probability B']);
  assert.equal(row.rows.length, n);
  row.rows.forEach(([k, s, p, sb, pb]) => {
    near(s, scores[k], 2e-5, `row score ${k}`);
    near(p, probs[k], 5e-6, `row probability ${k}`);
    near(sb, other.scores[k], 2e-5, `row score B ${k}`);
    near(pb, other.probs[k], 5e-6, `row probability B ${k}`);
  });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the difference view at n = 32 draws p_A − p_B and reads out both probabilities and their difference', async () => {
  const n = 32;
  const page = await openStep(b, 'attention', `n=${n}&family=rope&versus=sinusoidal&view=difference&i=17&j=15`);
  // The last pair comes back to the first: the page then reuses the cells it kept for both.
  for (const [A, B, i, j] of [['rope', 'sinusoidal', 17, 15], ['alibi', 'none', 31, 3], ['rope', 'sinusoidal', 3, 2], ['learned', 't5', 8, 8]]) {
    await pick(page, 'family', A);
    await pick(page, 'versus', B);
    await setSlider(page, 'attention', 'i', i);
    await setSlider(page, 'attention', 'j', j);
    const r = await readouts(page);
    const a = checkReadouts(r, A, n, i, j);
    const bRow = attentionRow(B, n, i);
    near(r.probB.value, bRow.probs[j], 5e-6, `${B} probability`);
    near(r.diff.value, a.probs[j] - bRow.probs[j], 1e-5, 'difference');
    shows(r.diff.text, a.probs[j] - bRow.probs[j], 4, 'difference text');
    const cells = await csv(page, 'cells');
    let worst = 0;
    for (let q = 0; q < n; q++) {
      const pa = attentionRow(A, n, q).probs;
      const pb = attentionRow(B, n, q).probs;
      for (let k = 0; k < n; k++) worst = Math.max(worst, Math.abs(cells.rows[q][k + 1] - (pa[k] - pb[k])));
    }
    assert.ok(worst < 1e-5, `${A} − ${B}: worst cell error ${worst}`);
  }
  // The line plot shows both rows: A solid with a dot per key, B dashed.
  assert.equal(await page.locator('#attention svg.lineplot path.series').count(), 2);
  assert.equal((await page.$eval('#attention svg.lineplot', plotDots, 'a')).length, n);
  assert.match(await page.getAttribute('#attention svg.lineplot', 'aria-label'), /query 8 .*Learned.*dashed line shows T5 bias/s);
  assert.match(await page.getAttribute('#attention canvas.heatmap', 'aria-label'), /Learned minus those of T5 bias over 32 tokens/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('after a head, mask, family, i, B, length or view change, moves of j alone show the new rows (no stale row)', async () => {
  let n = 64;
  const page = await openStep(b, 'attention', `n=${n}&family=alibi&versus=t5&i=40&j=10&head=3`);
  // Each change, then two moves of j alone: the first reads the rows the change computed, the
  // second the rows the first move kept.
  const steps = [
    [{ head: 0 }, () => setSlider(page, 'attention', 'head', 0)],
    [{ causal: false }, () => page.click('#attention input[name=causal]')],
    [{ family: 'rope' }, () => pick(page, 'family', 'rope')],
    [{ i: 41 }, () => setSlider(page, 'attention', 'i', 41)],
    [{ i: 40 }, () => setSlider(page, 'attention', 'i', 40)],
    [{ versus: 'alibi' }, () => pick(page, 'versus', 'alibi')],
    [{ view: 'difference' }, () => pick(page, 'view', 'difference')],
    [{ n: 128 }, () => pick(page, 'n', 128)],
    [{ head: 5 }, () => setSlider(page, 'attention', 'head', 5)],
  ];
  const at = { family: 'alibi', versus: 't5', i: 40, causal: true, head: 3 };
  let j = 10;
  for (const [change, act] of steps) {
    await act();
    Object.assign(at, change);
    n = at.n ?? n;
    for (const move of [1, 2]) {
      j = (j + 7 * move) % n;
      await setSlider(page, 'attention', 'j', j);
      const r = await readouts(page);
      checkReadouts(r, at.family, n, at.i, j, { causal: at.causal, head: at.head });
      const bRow = attentionRow(at.versus, n, at.i, { causal: at.causal, head: at.head });
      near(r.probB.value, bRow.probs[j], 5e-6, `${at.versus} probability after ${JSON.stringify(change)}, j ${j}`);
    }
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('n = 2048: readouts match, every drawn row of 256 bins sums to 1 and bins its row; update times', async () => {
  const n = 2048;
  const page = await openStep(b, 'attention', `n=${n}&i=1500&j=1490`);
  assert.equal(await page.getAttribute('#attention input[name=i]', 'max'), '2047');
  // Main-thread tasks over 50 ms while the changes below run (reported, not asserted).
  await watchLongTasks(page);
  const moves = [
    ['rope', 1500, 1490], ['alibi', 2047, 1000], ['sinusoidal', 700, 699], ['t5', 1234, 1200],
    ['learned', 64, 64], ['none', 1999, 5],
  ];
  for (const [family, i, j] of moves) {
    await pick(page, 'family', family);
    await setSlider(page, 'attention', 'i', i);
    await setSlider(page, 'attention', 'j', j);
    checkReadouts(await readouts(page), family, n, i, j);
  }
  // The drawn grid: 256 rows (every 8th query), 256 columns of 8 keys each.
  const cells = await csv(page, 'cells');
  const { rows, edges } = grid(n);
  assert.equal(cells.rows.length, 256);
  assert.equal(cells.header.length, 257);
  assert.equal(cells.header[1], 'k0-7');
  cells.rows.forEach((row, r) => {
    assert.equal(row[0], rows[r]);
    const sum = row.slice(1).reduce((x, y) => x + y, 0);
    assert.ok(Math.abs(sum - 1) < 1e-4, `row ${r} sums to ${sum}`);
  });
  const none = model.cells('none', { n, head: 3, causal: true });
  for (const r of [0, 100, 249]) {
    for (let c = 0; c < 256; c++) near(cells.rows[r][c + 1], none[r * 256 + c], 5e-6, `row ${r} bin ${c}`);
  }
  // More moves for the timing: the difference view, the mask, the length, the ALiBi head.
  await pick(page, 'view', 'difference');
  for (const family of FAMILIES) {
    await pick(page, 'family', family);
    for (const i of [300, 1024, 2047]) await setSlider(page, 'attention', 'i', i);
  }
  await page.click('#attention input[name=causal]');
  for (const i of [100, 900, 1800]) await setSlider(page, 'attention', 'i', i);
  checkReadouts(await readouts(page), 'alibi', n, 1800, 5, { causal: false });
  await pick(page, 'view', 'single');
  for (const h of [0, 7, 4]) await setSlider(page, 'attention', 'head', h);
  const times = await updateTimes(page, 'attention');
  assert.ok(times.length >= 40, `${times.length} updates measured`);
  console.log(`update:attention at n = 2048: p50 ${percentile(times, 50).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms over ${times.length} updates`);
  // Each long task, and whether a control change ran in it (an update measure inside it): the
  // others are the page's own work meanwhile (the other steps loading behind this one, the CSV).
  const updates = await page.evaluate(() => performance.getEntriesByName('update:attention').map((u) => u.startTime));
  const longTasks = (await readLongTasks(page, 'attention')).map(({ start, duration }) => ({
    start, duration, change: updates.some((u) => u >= start && u < start + duration),
  }));
  // The observer hears a task it should: one of ~80 ms (a page timer) made here, after the changes.
  await page.evaluate(() => { setTimeout(() => { const end = performance.now() + 80; while (performance.now() < end); }, 0); });
  await page.waitForFunction((k) => window.__longTasks.length > k, longTasks.length);
  await writeFile(new URL('../out/perf/attention-longtasks.json', import.meta.url), JSON.stringify(longTasks));
  console.log(`attention at n = 2048: ${longTasks.length} main-thread tasks over 50 ms during the changes, ${longTasks.filter((t) => t.change).length} of them a change`);
  // After all that the map on show, and the difference view's (its arrays may come from maps let
  // go), are still the model's.
  const last = { family: FAMILIES.at(-1), versus: 'none', view: 'single', n, causal: false, head: 4 };
  await checkMap(page, last, 'n = 2048 after the changes');
  await pick(page, 'view', 'difference');
  await checkMap(page, { ...last, view: 'difference' }, 'n = 2048, the difference view');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('URL state: the controls write it, it reopens the same state, and bad values are clamped', async () => {
  const page = await openStep(b, 'attention', 'family=bogus&versus=alibi&view=nope&n=100&i=5000&j=-3&head=99&causal=maybe');
  assert.deepEqual((await stateParams(page)), {
    step: 'attention', family: 'rope', versus: 'alibi', view: 'single', n: '128', causal: '1', head: '7', i: '127', j: '0',
  });
  assert.equal(await page.inputValue('#attention input[name=i]'), '127');
  assert.equal(await page.getAttribute('#attention input[name=i]', 'max'), '127');
  checkReadouts(await readouts(page), 'rope', 128, 127, 0);
  // A shorter sequence pulls i and j inside it.
  await setSlider(page, 'attention', 'j', 90);
  await pick(page, 'n', 64);
  assert.deepEqual((await stateParams(page)), {
    step: 'attention', family: 'rope', versus: 'alibi', view: 'single', n: '64', causal: '1', head: '7', i: '63', j: '63',
  });
  // The heatmap takes focus; with a chosen cell the arrow keys move it: one row down is query 63
  // already (the last), so go up and left instead.
  await page.focus('#attention canvas.heatmap');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual([(await urlParams(page)).i, (await urlParams(page)).j], ['62', '62']);
  assert.match(await page.textContent('#attention .hover-readout'), /^query 62, key 62: 0\.\d{4}/);
  const url = await pageUrl(page);
  await page.close();

  const again = await b.newPage();
  await again.goto(url);
  await again.waitForSelector('body[data-ready=true]');
  assert.equal(await again.isChecked('#attention input[name=n][value="64"]'), true);
  assert.equal(await again.isChecked('#attention input[name=versus][value="alibi"]'), true);
  checkReadouts(await readouts(again), 'rope', 64, 62, 62);
  assert.deepEqual(again.errors, []);
  await again.close();
});

test('an old link with family=relative (and versus=relative) opens T5, and the URL then says t5', async () => {
  // The step took the family registry's names ('t5'); links made before keep working.
  const page = await openStep(b, 'attention', 'family=relative&versus=relative&n=64&causal=0&i=40&j=33&view=difference');
  assert.equal(await page.isChecked('#attention input[name=family][value="t5"]'), true);
  assert.equal(await page.isChecked('#attention input[name=versus][value="t5"]'), true);
  assert.deepEqual((await stateParams(page)), {
    step: 'attention', family: 't5', versus: 't5', view: 'difference', n: '64', causal: '0', head: '3', i: '40', j: '33',
  });
  const r = await readouts(page);
  checkReadouts(r, 't5', 64, 40, 33, { causal: false });
  near(r.diff.value, 0, 0, 'T5 against itself');
  assert.deepEqual(page.errors, []);
  await page.close();
});

/**
 * The map on show: every drawn cell (Save CSV) equals the model's binned attention (A, or
 * A − B in the difference view), and a spread of unmasked cells is painted in the colour of the
 * cell the CSV gives. The step reuses its maps' arrays (cells and colours) once nothing reads
 * them: a map written into an array still on show or still kept, or colours left from another
 * map, fail here.
 */
async function checkMap(page, { family, versus, view, n, causal, head }, what) {
  const cells = await csv(page, 'cells');
  const { rows, edges } = grid(n);
  const diff = view === 'difference';
  assert.equal(cells.rows.length, rows.length, `${what}: rows`);
  const C = edges.length - 1;
  const a = model.cells(family, { n, head, causal });
  const want = diff ? model.difference(a, model.cells(versus, { n, head, causal })) : a;
  let worst = 0;
  rows.forEach((q, r) => {
    assert.equal(cells.rows[r][0], q, `${what}: query of row ${r}`);
    for (let c = 0; c < C; c++) worst = Math.max(worst, Math.abs(cells.rows[r][c + 1] - want[r * C + c]));
  });
  assert.ok(worst < 1e-5, `${what}: worst cell error ${worst}`);
  const limit = Number(await page.getAttribute('#attention canvas.heatmap', 'data-limit'));
  const R = rows.length;
  // Cells spread over the map, each moved into its row's unmasked bins under the causal mask.
  const spots = [[0, 0], [1, 3], [R >> 3, R >> 1], [R >> 2, 5], [R >> 1, R >> 2], [R >> 1, R >> 1], [(3 * R) >> 2, R - 2], [R - 1, R - 1], [R - 3, 1]]
    .map(([r, c]) => [r, causal ? Math.min(c, edges.findLastIndex((e) => e <= rows[r])) : c]);
  const got = await pixels(page, spots);
  spots.forEach(([r, c], s) => {
    const want = colour(cells.rows[r][c + 1], limit);
    assert.ok(want.every((v, k) => Math.abs(v - got[s][k]) <= 2), `${what}: pixel (${r}, ${c}) ${got[s]} vs ${want.map(Math.round)}`);
  });
}

// Gives the page's idle work (the maps it computes ahead of need, one per idle slot below 1,024
// tokens) twenty idle slots: enough for its 13 other maps on an idle machine (not checked). Each
// wait ends after a second even without an idle period: a CI run once hung in this test for 28
// minutes with the page's renderer idle, and this wait and a CSV download's were its only waits
// with no time limit.
const idle = (page) => page.evaluate(async () => {
  for (let k = 0; k < 20; k++) await new Promise((r) => requestIdleCallback(r, { timeout: 1000 }));
});

test('n = 64 and 128 through changes that let maps go and reuse their arrays (ALiBi\'s heads, the mask, both views, the length): the map on show is always the model\'s', async () => {
  const state = { family: 'alibi', versus: 'rope', view: 'difference', n: 64, causal: true, head: 0 };
  const page = await openStep(b, 'attention', 'family=alibi&versus=rope&view=difference&n=64&i=40&j=30&causal=1&head=0');
  await checkMap(page, state, 'at the start');
  // Back and forth, so that maps the cache kept are shown again after others came and went.
  const moves = [['head', 1], ['head', 2], ['causal', false], ['head', 5], ['view', 'single'], ['family', 't5'],
    ['family', 'alibi'], ['n', 128], ['versus', 'alibi'], ['view', 'difference'], ['family', 't5'], ['view', 'single'],
    ['n', 64], ['head', 7], ['causal', true], ['family', 'rope'], ['family', 't5'], ['view', 'difference'], ['head', 0],
    ['view', 'single'], ['view', 'difference'], ['family', 'rope'], ['view', 'single'], ['family', 't5'],
    // With the idle work done, a change of ALiBi's head in the single view lets the map on show go
    // (render keeps the new head's map before showing it): its arrays must not be reused yet.
    ['family', 'alibi'], ['head', 3], ['head', 4]];
  for (const [control, value] of moves) {
    if (control === 'head') await setSlider(page, 'attention', 'head', value);
    else if (control === 'causal') await page.click('#attention input[name=causal]');
    else await pick(page, control, value);
    state[control] = value;
    await checkMap(page, state, `after ${control} = ${value}`);
    await idle(page);
  }
  await checkMap(page, state, 'after the idle work');  // which must not write into the map on show
  assert.deepEqual(page.errors, []);
  await page.close();
});

// Relative luminance (WCAG 2.1) of an sRGB colour [r, g, b] in 0..255.
function luminance([r, g, b]) {
  const lin = (v) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

test('the causal mask in the dark theme: masked cells are dark and unlike every unmasked cell; the light theme keeps the scale\'s 0; a theme switch repaints', async () => {
  const n = 32;
  const all = Array.from({ length: n * n }, (_, x) => [Math.floor(x / n), x % n]);
  const masked = all.filter(([q, k]) => k > q);
  const open = all.filter(([q, k]) => k <= q);
  const page = await openStep(b, 'attention', `n=${n}&i=20&j=13&causal=1&theme=dark`);
  const got = await pixels(page, all);
  const at = ([q, k]) => got[q * n + k];
  const distance = (x, y) => Math.hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]);
  // Every masked cell has one colour, and it is dark.
  const mask = at(masked[0]);
  for (const cell of masked) assert.deepEqual(at(cell), mask, `masked cell ${cell}`);
  assert.ok(luminance(mask) < 0.06, `masked colour ${mask}: luminance ${luminance(mask).toFixed(3)}`);
  // Unlike any probability, 0 included (the scale's near-white) and the deepest red.
  let nearest = Infinity;
  for (const cell of open) nearest = Math.min(nearest, distance(at(cell), mask));
  assert.ok(nearest > 60, `an unmasked cell is within ${nearest.toFixed(0)} of the masked colour`);
  // The unmasked cells are still coloured as the scale says.
  const limit = Number(await page.getAttribute('#attention canvas.heatmap', 'data-limit'));
  const rope = (q) => attentionRow('rope', n, q).probs;
  for (const [q, k] of [[0, 0], [9, 4], [20, 13], [31, 31], [27, 22]]) {
    const want = colour(rope(q)[k], limit);
    assert.ok(want.every((v, c) => Math.abs(v - at([q, k])[c]) <= 2), `dark theme pixel (${q}, ${k}): ${at([q, k])} vs ${want.map(Math.round)}`);
  }

  // Light: the masked cells show the scale's 0, as a probability of 0 would.
  await page.click('[data-theme-option=light]');
  const light = await pixels(page, [masked[0], masked.at(-1)]);
  for (const px of light) assert.ok(colour(0, 1).every((v, c) => Math.abs(v - px[c]) <= 1), `light masked ${px}`);
  // And back to dark without reloading: repainted.
  await page.click('[data-theme-option=dark]');
  assert.deepEqual((await pixels(page, [masked[0]]))[0], mask);
  assert.deepEqual(page.errors, []);
  await page.close();
});
