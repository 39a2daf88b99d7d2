// The relative-bias step in Chromium: three schemes behind tabs. The page shows what
// web/steps/relative-bias/model.js computes, here run in Node on the SIMD build as the page runs
// it: Shaw's index, the Transformer-XL terms, T5's buckets, the distances sharing a bucket and
// the buckets in use. Plus URL state, clamping, the tabs, the keyboard, the figures (cell
// colours, bar lengths, plot points), the CSV downloads, decimal commas, axe and update times.
// The model's numbers against Shaw's clip, the exact T5 definition and the seeded
// Transformer-XL vectors redrawn with BigInt are tests/js/relative-bias-model.test.js.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { startBrowser } from './browser.js';
import { downloaded, openStep, pageUrl, percentile, plotDots, readout, samePoint, setSlider, updateTimes, urlParams } from './steps.js';
import { f2 } from '../expect/relative-bias.js';
import { GROUPING } from '../../web/i18n.js';
import { loadPosenc } from '../../wasm/posenc.js';
import { XL_DIM as XL_D, XL_LEN, relativeBiasModel } from '../../web/steps/relative-bias/model.js';

const ID = 'relative-bias';
let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

// [MODEL] ------------------------------------------------------------------------------------------
// What the page must show: the step's model in Node (its own test holds it to the formulas).
const model = relativeBiasModel(await loadPosenc({ simd: true }));
const shawIndex = (i, j, k) => model.shaw({ k, i, j }).at;
const xlTerms = (xi, xj, seed) => model.xl({ xi, xj, seed });
/** T5's bucket of offset rp in the sequence of setting v. */
const t5Bucket = (v, rp) => model.t5Buckets(v).bucketAt(rp);
const EN = JSON.parse(readFileSync(new URL('../../web/i18n/en/relative-bias.json', import.meta.url), 'utf8'));

// [HELPERS] ----------------------------------------------------------------------------------------

const ro = (page, name) => readout(page, ID, name);
const minus = (v) => (v < 0 ? `−${-v}` : String(v));

/** Colours at the centre of every cell of the step's visible heatmap, row-major. */
async function cellColours(page, rows, cols) {
  return page.$eval(`#${ID} canvas.heatmap`, (c, [r, k]) => {
    const ctx = c.getContext('2d');
    const out = [];
    for (let y = 0; y < r; y++) {
      for (let x = 0; x < k; x++) {
        const px = ctx.getImageData(Math.floor(((x + 0.5) * c.width) / k), Math.floor(((y + 0.5) * c.height) / r), 1, 1).data;
        out.push(`${px[0]},${px[1]},${px[2]}`);
      }
    }
    return out;
  }, [rows, cols]);
}

/** Equal values ⇔ equal colours, except at the cells in `skip`. */
function sameColourSameValue(colours, values, skip = new Set()) {
  const byValue = new Map();
  const byColour = new Map();
  colours.forEach((c, n) => {
    if (skip.has(n)) return;
    const v = values[n];
    if (!byValue.has(v)) byValue.set(v, c);
    assert.equal(c, byValue.get(v), `cell ${n}: value ${v} has colour ${c}, elsewhere ${byValue.get(v)}`);
    if (!byColour.has(c)) byColour.set(c, v);
    assert.equal(v, byColour.get(c), `cell ${n}: colour ${c} shows both ${v} and ${byColour.get(c)}`);
  });
  return byValue.size;
}

async function download(page, name) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.locator(`#${ID} button[data-table="${name}"]`).click()]);
  assert.equal(file.suggestedFilename(), `${ID}-${name}.csv`);
  return (await downloaded(file)).toString('utf8').trim().split('\n').map((l) => l.split(','));
}

// [SHAW] -------------------------------------------------------------------------------------------

async function checkShaw(page, k, i, j) {
  const idx = shawIndex(i, j, k);
  const got = { index: await ro(page, 'shaw-index'), clipped: await ro(page, 'shaw-clipped'),
    distance: await ro(page, 'shaw-distance'), rows: await ro(page, 'shaw-rows') };
  const where = `k ${k} i ${i} j ${j}`;
  assert.equal(got.index.value, idx, where);
  assert.equal(got.index.text, String(idx), where);
  assert.equal(got.clipped.value, idx - k, where);
  assert.equal(got.clipped.text, minus(idx - k), where);
  assert.equal(got.distance.value, j - i, where);
  assert.equal(got.distance.text, minus(j - i), where);
  assert.equal(got.rows.value, 2 * k + 1, where);
  // The chips: row i of the index matrix, key by key, and the 2k + 1 table rows with this one marked.
  const row = await page.$$eval(`#${ID} .rb-row .rb-chip-value`, (els) => els.map((e) => Number(e.textContent)));
  assert.deepEqual(row, Array.from({ length: 16 }, (_, c) => shawIndex(i, c, k)), where);
  assert.equal(await page.locator(`#${ID} .rb-table .rb-chip`).count(), 2 * k + 1, where);
  assert.equal(Number(await page.textContent(`#${ID} .rb-table .rb-chip.current .rb-chip-top`)), idx, where);
  assert.equal(Number(await page.textContent(`#${ID} .rb-row .rb-chip.current .rb-chip-top`).then((t) => t.replace(/\D/g, ''))), j);
}

test('Shaw: the defaults, every slider shows the model\'s index, the URL, the index map and its cells', async () => {
  const page = await openStep(b, ID);
  assert.deepEqual((await urlParams(page)), {
    step: ID, method: 'shaw', k: '3', i: '9', j: '4', xi: '12', xj: '7', seed: '0', len: '128', nb: '32', maxd: '128', bidir: '1', ti: '60', tj: '40', trained: '0',
  });
  assert.equal(await page.getAttribute(`#${ID} [role=tab][aria-selected=true]`, 'data-method'), 'shaw');
  await checkShaw(page, 3, 9, 4);
  assert.match(await page.textContent(`#${ID} .rb-formula`), /clip\u2061?\(4−9,−3,3\)=−3/);

  for (const [k, i, j] of [[0, 5, 9], [1, 0, 15], [5, 15, 0], [15, 3, 12], [2, 7, 7], [4, 10, 12], [7, 2, 9]]) {
    await setSlider(page, ID, 'k', k);
    await setSlider(page, ID, 'i', i);
    await setSlider(page, ID, 'j', j);
    await checkShaw(page, k, i, j);
    assert.deepEqual([((await urlParams(page))).k, ((await urlParams(page))).i, ((await urlParams(page))).j], [String(k), String(i), String(j)]);
    // The map: one colour per clipped distance, 2k + 1 of them (one when k = 0).
    const values = Array.from({ length: 256 }, (_, n) => shawIndex(Math.floor(n / 16), n % 16, k));
    const colours = await cellColours(page, 16, 16);
    assert.equal(sameColourSameValue(colours, values), 2 * k + 1, `k ${k}`);
    assert.match(await page.getAttribute(`#${ID} canvas.heatmap`, 'aria-label'), new RegExp(`query ${i} and key ${j}, uses row ${shawIndex(i, j, k)} of the ${2 * k + 1}`));
  }

  // A click on a cell moves both sliders there; the arrow keys move the selection on.
  await setSlider(page, ID, 'k', 3);
  await page.locator(`#${ID} canvas.heatmap`).scrollIntoViewIfNeeded();
  const box = await page.locator(`#${ID} canvas.heatmap`).boundingBox();
  await page.mouse.click(box.x + (13.5 / 16) * box.width, box.y + (2.5 / 16) * box.height);
  await checkShaw(page, 3, 2, 13);
  await page.mouse.move(0, 0);
  await page.locator(`#${ID} canvas.heatmap`).focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await checkShaw(page, 3, 3, 11);
  assert.match(await page.textContent(`#${ID} .hover-readout`), /^query 3, key 11: row 6 of the table \(clipped distance 3\)$/);
  assert.deepEqual([((await urlParams(page))).i, ((await urlParams(page))).j], ['3', '11']);

  const times = await updateTimes(page, ID);
  assert.ok(times.length >= 20);
  console.log(`shaw updates: p95 ${percentile(times, 95).toFixed(2)} ms over ${times.length}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('tabs: click or arrow keys switch the scheme, only its controls, figures and readouts are present, and the URL keeps it', async () => {
  const page = await openStep(b, ID, 'k=5&i=2&j=14');
  const count = (sel) => page.locator(`#${ID} ${sel}`).count();
  assert.equal(await count('input[name=k]'), 1);
  assert.equal(await count('input[name=xi]'), 0);
  assert.equal(await count('button[data-export=png]'), 1);
  assert.equal(await count('.readouts [data-readout]'), 4);

  await page.locator(`#${ID} [role=tab][data-method=xl]`).click();
  assert.equal(((await urlParams(page))).method, 'xl');
  assert.equal(await count('input[name=k]'), 0);
  assert.equal(await count('input[name=xi]'), 1);
  assert.equal(await count('svg.lineplot'), 1);
  assert.equal(await count('button[data-export=png]'), 2, 'the waterfall and the plot can be saved');
  assert.equal(await count('.readouts [data-readout]'), 6);
  assert.equal(await page.getAttribute(`#${ID} .workbench`, 'aria-labelledby'), `${ID}-tab-xl`);

  // Keyboard: the selected tab is the one tab stop; arrows move and select.
  assert.deepEqual(await page.$$eval(`#${ID} [role=tab]`, (ts) => ts.map((t) => t.tabIndex)), [-1, 0, -1]);
  await page.locator(`#${ID} [role=tab][aria-selected=true]`).focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(((await urlParams(page))).method, 't5');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.method), 't5');
  assert.equal(await count('input[name=nb]'), 1);
  assert.equal(await count('canvas.heatmap'), 1);
  assert.equal(await count('button[data-export=png]'), 2);
  await page.keyboard.press('ArrowRight');  // wraps round to the first
  assert.equal(((await urlParams(page))).method, 'shaw');
  await page.keyboard.press('End');
  assert.equal(((await urlParams(page))).method, 't5');
  await page.keyboard.press('Home');
  assert.equal(((await urlParams(page))).method, 'shaw');
  // Shaw kept its state while hidden.
  await checkShaw(page, 5, 2, 14);

  // Reopening the written URL gives the same scheme and state.
  await page.locator(`#${ID} [role=tab][data-method=t5]`).click();
  await setSlider(page, ID, 'nb', 40);
  const url = await pageUrl(page);
  const again = await b.newPage();
  await again.goto(url);
  await again.waitForSelector('body[data-ready=true]');
  assert.equal(await again.getAttribute(`#${ID} [role=tab][aria-selected=true]`, 'data-method'), 't5');
  assert.equal(await again.inputValue(`#${ID} input[name=nb]`), '40');
  assert.equal((await readout(again, ID, 't5-bucket')).value, t5Bucket({ len: 128, nb: 40, maxd: 128, bidir: true }, 40 - 60));
  assert.deepEqual(again.errors, []);
  await again.close();
  assert.deepEqual(page.errors, []);
  await page.close();
});

// [TRANSFORMER-XL] ---------------------------------------------------------------------------------

async function checkXl(page, i, j, seed) {
  const { terms, score } = xlTerms(i, j, seed);
  const where = `i ${i} j ${j} seed ${seed}`;
  for (const [n, name] of ['a', 'b', 'c', 'd'].entries()) {
    const r = await ro(page, `xl-${name}`);
    assert.equal(r.value, terms[n], `${where} (${name})`);
    assert.equal(r.text, f2(terms[n]), `${where} (${name})`);
  }
  const s = await ro(page, 'xl-score');
  assert.equal(s.value, score, `${where} score`);
  assert.equal(s.text, f2(score));
  assert.equal((await ro(page, 'xl-distance')).value, i - j);
  assert.ok((await page.textContent(`#${ID} .rb-xl-now`)).endsWith(`=${f2(score)}`), where);
  return { terms, score };
}

test('Transformer-XL: the four terms and their sum shown, bars to scale, the plot, the CSVs', async () => {
  // The plot of every key and the Save CSV buttons are in the Go deeper fold: opened.
  const page = await openStep(b, ID, 'method=xl&deeper=1');
  await checkXl(page, 12, 7, 0);
  for (const [i, j, seed] of [[0, 0, 0], [23, 0, 0], [5, 19, 3], [12, 12, 42], [17, 4, 99], [1, 2, 7]]) {
    await setSlider(page, ID, 'xi', i);
    await setSlider(page, ID, 'xj', j);
    await setSlider(page, ID, 'seed', seed);
    const { terms, score } = await checkXl(page, i, j, seed);
    assert.deepEqual([((await urlParams(page))).xi, ((await urlParams(page))).xj, ((await urlParams(page))).seed], [String(i), String(j), String(seed)]);
    // Waterfall: five bars whose lengths are proportional to |term| and |score|, each term
    // starting where the previous one ended.
    const rects = await page.$$eval(`#${ID} .rb-waterfall rect.bar`, (rs) => rs.map((r) => ({ x: Number(r.getAttribute('x')), w: Number(r.getAttribute('width')) })));
    assert.equal(rects.length, 5);
    const want = [...terms, score];
    const big = want.reduce((best, v, n) => (Math.abs(v) > Math.abs(want[best]) ? n : best), 0);
    const scale = rects[big].w / Math.abs(want[big]);
    rects.forEach((r, n) => {
      if (Math.abs(want[n]) > 0.05) assert.ok(Math.abs(r.w - scale * Math.abs(want[n])) < 0.02 * r.w + 0.05, `${i},${j},${seed} bar ${n}`);
    });
    let at = 0;
    for (let n = 0; n < 4; n++) {
      const start = Math.min(at, at + terms[n]);
      assert.ok(Math.abs(rects[n].x - (rects[4].x + (start - Math.min(0, score)) * scale)) < 0.05 + 0.02 * Math.abs(start) * scale, `bar ${n} starts at the running sum`);
      at += terms[n];
    }
  }

  // The plot: the score against every key (24 dots), the marker on the current key, five curves.
  await setSlider(page, ID, 'xj', 9);
  const dots = (await page.$eval(`#${ID} .rb-xl-plot svg.lineplot`, plotDots, 'a')).map((d) => [d.cx, d.cy]);
  assert.equal(dots.length, XL_LEN);
  assert.equal(await page.locator(`#${ID} svg.lineplot path.series`).count(), 5);
  const marker = await page.$eval(`#${ID} svg.lineplot circle.marker`, (c) => [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]);
  assert.ok(samePoint(marker, dots[9]), `marker ${marker}, dot ${dots[9]}`);
  // Heights are linear in the score: check the ratio over all points.
  const scores = Array.from({ length: XL_LEN }, (_, j) => xlTerms(1, j, 7).score);
  const k = (dots[0][1] - dots[1][1]) / (scores[1] - scores[0]);
  scores.forEach((s, j) => assert.ok(Math.abs((dots[0][1] - dots[j][1]) - k * (s - scores[0])) < 0.05, `point ${j}`));
  // The cursor walks the points from the keyboard and reads them out.
  await page.locator(`#${ID} svg.lineplot`).focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.textContent(`#${ID} .plot-announcer`), `key position j: 1; term value: ${f2(scores[1])}`);

  // The CSVs: the terms of every key, and the inputs of the current pair, against this file's own numbers.
  const terms = await download(page, 'xl-terms');
  const rowTerms = xlTerms(1, 9, 7).row;  // query 1 against every key
  assert.equal(terms.length, 1 + XL_LEN);
  terms.slice(1).forEach(([i, j, ...vals]) => {
    assert.equal(Number(i), 1);
    assert.deepEqual(vals.map(Number), Array.from(rowTerms.subarray(4 * Number(j), 4 * Number(j) + 4)), `csv j ${j}`);
  });
  const inputs = await download(page, 'xl-inputs');
  assert.deepEqual(inputs[0].slice(0, 6), ['dim', 'q_1', 'k_9', 'u', 'v', 'R_-8']);
  const ref = model.xlInputs({ xi: 1, xj: 9, seed: 7 });
  inputs.slice(1).forEach(([c, q, kk, u, v, r, ...w], row) => {
    assert.equal(Number(c), row);
    assert.deepEqual([q, kk, u, v, r].map(Number), [ref.query[row], ref.key[row], ref.u[row], ref.v[row], ref.r[row]], `inputs row ${row}`);
    assert.deepEqual(w.map(Number), Array.from(ref.wr.subarray(row * XL_D, (row + 1) * XL_D)), `W_R row ${row}`);
  });
  const times = await updateTimes(page, ID);
  console.log(`xl updates: p95 ${percentile(times, 95).toFixed(2)} ms over ${times.length}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// [T5] -----------------------------------------------------------------------------------------------

async function checkT5(page, v) {
  const where = JSON.stringify(v);
  const p = model.t5(v);
  const bucket = await ro(page, 't5-bucket');
  assert.equal(bucket.value, p.bucket, where);
  assert.equal(bucket.text, String(p.bucket), where);
  assert.equal((await ro(page, 't5-offset')).text, minus(p.rp), where);
  assert.ok((await page.textContent(`#${ID} .rb-t5-now`)).endsWith(`=${p.bucket}`), where);
  assert.equal((await ro(page, 't5-used')).text, `${p.table.used} of ${v.nb}`, where);
  // The distances sharing this bucket (same side), or "and beyond" for the last one.
  const { kind, from, to } = p.range;
  const text = { future: 'every later key', open: `${from} and beyond`, span: from === to ? String(from) : `${from} to ${to}` }[kind];
  assert.equal((await ro(page, 't5-range')).text, text, where);
  const region = EN[`relative-bias.t5.region${p.region[0].toUpperCase()}${p.region.slice(1)}`];
  assert.equal((await ro(page, 't5-region')).text, region, where);
  return p.bucket;
}

const values = async (page) => {
  const u = (await urlParams(page));
  return { len: Number(u.len), nb: Number(u.nb), maxd: Number(u.maxd), bidir: u.bidir === '1', ti: Number(u.ti), tj: Number(u.tj) };
};

test('T5: the model\'s buckets shown for many pairs and settings, both directions, the preset, the map and the CSV', async () => {
  // The map of every pair and the Save CSV buttons are in the Go deeper fold: opened.
  const page = await openStep(b, ID, 'method=t5&deeper=1');
  const start = await values(page);
  assert.deepEqual(start, { len: 128, nb: 32, maxd: 128, bidir: true, ti: 60, tj: 40 });
  assert.equal(await checkT5(page, start), 10);
  assert.equal((await ro(page, 't5-range')).text, '16 to 22');
  assert.equal((await ro(page, 't5-region')).text, 'logarithmic');
  assert.equal((await ro(page, 't5-used')).text, '31 of 32', 'bucket 16 (distance 0 on the second side) never occurs');

  // The last bucket of the T5 preset starts at distance 91, well before max_distance 128.
  await setSlider(page, ID, 'ti', 110);
  await setSlider(page, ID, 'tj', 19);
  assert.equal(await checkT5(page, await values(page)), 15);
  assert.equal((await ro(page, 't5-range')).text, '91 and beyond');
  assert.equal((await ro(page, 't5-region')).text, 'last: all further ones');
  await setSlider(page, ID, 'tj', 20);
  assert.equal(await checkT5(page, await values(page)), 14);

  for (const s of [
    { nb: 32, maxd: 128, bidir: false, len: 256, ti: 200, tj: 10 },
    { nb: 32, maxd: 128, bidir: false, len: 256, ti: 10, tj: 200 },
    { nb: 16, maxd: 40, bidir: true, len: 64, ti: 0, tj: 63 },
    { nb: 64, maxd: 512, bidir: true, len: 512, ti: 511, tj: 0 },
    { nb: 8, maxd: 20, bidir: false, len: 32, ti: 31, tj: 0 },
    { nb: 128, maxd: 1024, bidir: true, len: 512, ti: 3, tj: 300 },
    { nb: 10, maxd: 6, bidir: true, len: 48, ti: 20, tj: 25 },
  ]) {
    await page.locator(`#${ID} input[name=bidir]`).setChecked(s.bidir);
    for (const name of ['len', 'nb', 'maxd', 'ti', 'tj']) await setSlider(page, ID, name, s[name]);
    const v = await values(page);
    assert.deepEqual(v, s);
    await checkT5(page, v);
    // Many more pairs through the hover line of the map: every cell the arrow keys reach.
    const map = page.locator(`#${ID} canvas.heatmap`);
    await page.mouse.move(0, 0);  // a mouse left over the map would move its cursor too
    await map.focus();
    for (const key of ['ArrowUp', 'ArrowLeft', 'ArrowLeft', 'ArrowDown', 'End', 'Home']) {
      await page.keyboard.press(key);
      const u = await values(page);
      const hover = await page.textContent(`#${ID} .hover-readout`);
      assert.equal(hover, `query ${u.ti}, key ${u.tj} (relative position ${minus(u.tj - u.ti)}): bucket ${t5Bucket(u, u.tj - u.ti)}`);
    }
    await checkT5(page, await values(page));
  }

  // The whole bucket table as a CSV: every offset of the sequence (and past maxd), against HF.
  await setSlider(page, ID, 'len', 96);
  await setSlider(page, ID, 'nb', 24);
  await setSlider(page, ID, 'maxd', 70);
  await page.locator(`#${ID} input[name=bidir]`).setChecked(false);
  const csv = await download(page, 't5-buckets');
  assert.deepEqual(csv[0], ['key_minus_query', 'bucket']);
  assert.equal(csv.length - 1, 2 * 95 + 1);
  const table = model.t5Buckets({ len: 96, nb: 24, maxd: 70, bidir: false });
  assert.deepEqual(csv.slice(1).map((row) => row.map(Number)), Array.from(table.rel, (rp, n) => [rp, table.buckets[n]]));

  // The map: equal buckets, equal colours; one colour per bucket that occurs.
  await setSlider(page, ID, 'len', 64);
  for (const bidir of [false, true]) {
    await page.locator(`#${ID} input[name=bidir]`).setChecked(bidir);
    const v = await values(page);
    const cells = Array.from({ length: 64 * 64 }, (_, n) => t5Bucket(v, (n % 64) - Math.floor(n / 64)));
    const colours = await cellColours(page, 64, 64);
    // Every cell: the selection's outline is laid over the canvas, not drawn into it.
    const distinct = sameColourSameValue(colours, cells);
    assert.equal(distinct, new Set(cells).size, `bidir ${bidir}`);
  }

  // The preset puts back 32 buckets, 128, bidirectional.
  await page.locator(`#${ID} button[name=preset]`).click();
  const p = await values(page);
  assert.deepEqual([p.nb, p.maxd, p.bidir], [32, 128, true]);
  assert.equal(await page.inputValue(`#${ID} input[name=maxd]`), '128');
  assert.ok(await page.locator(`#${ID} input[name=bidir]`).isChecked());
  await checkT5(page, p);

  // The plot: the bucket of keys before the query, one dot per distance, with the marker on it.
  const dots = (await page.$eval(`#${ID} .rb-t5-plot svg.lineplot`, plotDots, 'a')).map((d) => d.cy);
  assert.equal(dots.length, 64);
  const before = Array.from(model.t5({ len: 64, nb: 32, maxd: 128, bidir: true, ti: 0, tj: 0 }).before);
  const k = (dots[0] - dots[12]) / (before[12] - before[0]);
  before.forEach((bk, d) => assert.ok(Math.abs(dots[0] - dots[d] - k * bk) < 0.05, `distance ${d}`));

  const times = await updateTimes(page, ID);
  console.log(`t5 updates: p95 ${percentile(times, 95).toFixed(2)} ms over ${times.length}, max ${Math.max(...times).toFixed(2)} ms`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('T5 controls stay consistent: maxd above the exact range, len on its grid, the pair inside the sequence', async () => {
  const page = await openStep(b, ID, 'method=t5&nb=64&maxd=10&bidir=0&len=1000&ti=900&tj=-5');
  // Causal with 64 buckets: 32 exact distances, so maxd must be at least 33; len is capped at 512.
  assert.deepEqual(await values(page), { len: 512, nb: 64, maxd: 33, bidir: false, ti: 511, tj: 0 });
  assert.equal(await page.inputValue(`#${ID} input[name=maxd]`), '33');
  await checkT5(page, await values(page));
  // Shrinking the sequence pulls the pair in; more buckets push maxd up.
  await setSlider(page, ID, 'len', 48);
  assert.deepEqual(await values(page), { len: 48, nb: 64, maxd: 33, bidir: false, ti: 47, tj: 0 });
  assert.equal(await page.getAttribute(`#${ID} input[name=ti]`, 'max'), '47');
  await setSlider(page, ID, 'nb', 100);
  assert.equal((await values(page)).maxd, 51);
  await page.locator(`#${ID} input[name=bidir]`).setChecked(true);
  await setSlider(page, ID, 'maxd', 2);
  assert.equal((await values(page)).maxd, 26, 'bidirectional, 100 buckets: 25 exact per side');
  await checkT5(page, await values(page));
  await page.close();

  // Odd, fractional and nonsense values.
  const odd = await openStep(b, ID, 'method=t5&nb=7&len=100&maxd=abc&bidir=yes&ti=2.6');
  assert.deepEqual(await values(odd), { len: 96, nb: 8, maxd: 128, bidir: true, ti: 3, tj: 40 });
  await checkT5(odd, await values(odd));
  assert.deepEqual(odd.errors, []);
  await odd.close();
  const bad = await openStep(b, ID, 'method=rope&k=99&i=-3&j=1e9&xi=50&seed=-1');
  const u = (await urlParams(bad));
  assert.deepEqual([u.method, u.k, u.i, u.j, u.xi, u.seed], ['shaw', '15', '0', '15', '23', '0']);
  await checkShaw(bad, 15, 0, 15);
  assert.deepEqual(bad.errors, []);
  await bad.close();
});

test('in Swedish and Russian the Transformer-XL readouts carry a decimal comma, and the scheme names are translated', async () => {
  for (const [lang, tab] of [['sv', 'Shaw m.fl.'], ['ru', 'Shaw и др.']]) {
    const page = await openStep(b, ID, `method=xl&xi=20&xj=3&seed=5&lang=${lang}`);
    const { terms, score } = xlTerms(20, 3, 5);
    const intl = new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: GROUPING[lang] ?? 'auto' });
    const fmt = { format: (v) => intl.format(v).replace('-', '−') };  // the page's minus sign in every locale
    for (const [n, name] of ['a', 'b', 'c', 'd'].entries()) assert.equal((await ro(page, `xl-${name}`)).text, fmt.format(terms[n]), `${lang} (${name})`);
    const s = await ro(page, 'xl-score');
    assert.equal(s.text, fmt.format(score));
    assert.match(s.text, /^−?\d+,\d\d$/);
    assert.equal(await page.textContent(`#${ID} [role=tab][data-method=shaw] .rb-tab-name`), tab);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

// The page-wide axe run sees only the default tab (Shaw); the other two are checked here.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
test('axe finds no WCAG 2.1 AA violation on the Transformer-XL and T5 tabs, light and dark, and at phone width', async () => {
  for (const [query, viewport] of [['method=xl&theme=light'], ['method=xl&theme=dark'], ['method=t5&theme=light'], ['method=t5&theme=dark&bidir=0'],
    ['method=xl', { width: 375, height: 800 }], ['method=t5', { width: 375, height: 800 }]]) {
    const page = await openStep(b, ID, query, viewport ? { viewport } : {});
    await page.evaluate(AXE);
    const violations = await page.evaluate(async (sel) => {
      const r = await window.axe.run(document.querySelector(sel), { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] }, resultTypes: ['violations'] });
      return r.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
    }, `#${ID}`);
    assert.deepEqual(violations, [], query);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});
