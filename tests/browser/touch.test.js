// Touch and small screens in Chromium, as a phone (375 × 812, touch, mobile viewport): every
// heatmap and line plot of every step reads a point on a tap, the same text a hover or the
// arrow keys give for that point; a finger drags a slider and a heatmap cursor without the
// page moving; at 320 px no step scrolls sideways, in any of the four languages; at 375 and 320 px
// no figure's text leaves its box or runs into the next label (tests/browser/text-boxes.js).
// Taps are real touch input (CDP touch events through page.touchscreen and Input.dispatchTouchEvent),
// so they go through the browser's own touch-action, pointer and click handling.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { LANGUAGES } from '../../web/i18n.js';
import { chromiumBrowser, serveForTests } from './browser.js';
import { tabPool } from './tab-pool.js';
import { minus, plotDots, samePoint, showStep, urlParams } from './steps.js';
import { STEP_IDS, WHOLE_WALK } from './step-ids.js';
import { textsOutsideFigures } from './text-boxes.js';
import { pe } from '../expect/sinusoidal.js';

const PHONE = { width: 375, height: 812 };
let server;
let browser;
let newPhonePage;  // opens a page in the phone's context (tab-pool.js)
before(async () => {
  server = await serveForTests();
  browser = await chromiumBrowser();
  const phone = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  newPhonePage = tabPool(phone, PHONE);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(id, query = '') {
  const page = await newPhonePage();
  // Counts the clicks a tap turns into: the browser sends the click after the touch ends, so a
  // test waits for it rather than reading the page in between.
  await page.addInitScript(() => {
    window.posencClicks = 0;
    addEventListener('click', () => { window.posencClicks++; }, true);
  });
  await page.goto(`${server.url}?step=${id}${query ? `&${query}` : ''}`);
  await page.waitForSelector('body[data-ready=true]');
  await page.waitForSelector(`#${id}:not([hidden])`);
  return page;
}

/** The viewport point at fractions (fx, fy) of the element's box, scrolled into view first. */
async function pointIn(locator, fx, fy) {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  return { x: box.x + fx * box.width, y: box.y + fy * box.height };
}

/** A tap at p, returning once the page has handled the click it becomes. */
async function tap(page, p) {
  const clicks = await page.evaluate(() => window.posencClicks);
  await page.touchscreen.tap(p.x, p.y);
  await page.waitForFunction((n) => window.posencClicks > n, clicks);
}

/** A finger put down at `from`, moved to `to` in `steps` moves, lifted. */
async function drag(page, from, to, steps = 8) {
  const cdp = await page.context().newCDPSession(page);
  const at = (p) => [{ x: p.x, y: p.y, id: 1, radiusX: 2, radiusY: 2, force: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(from) });
  for (let i = 1; i <= steps; i++) {
    const p = { x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(p) });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/** The hover line a heatmap speaks through: the live readout in the same figure. */
function hoverLine(canvas) {
  return canvas.locator('xpath=ancestor::*[.//*[contains(@class,"hover-readout")]][1]').locator('.hover-readout').first();
}

const scroll = (page) => page.evaluate(() => [scrollX, scrollY]);

/** Opens the step's Go deeper fold (what a reader taps to see the rest), and waits two frames. */
async function openFold(page, id) {
  await page.$eval(`#${id}`, (section) => { for (const d of section.querySelectorAll('details.deeper')) d.open = true; });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

test('a tap on any heatmap cell reads it out, the text a mouse hover gives; the reading stays after the finger lifts', async () => {
  let maps = 0;
  const page = await open(STEP_IDS[0]);  // one page, moved from step to step as a reader does
  for (const id of STEP_IDS) {
    await showStep(page, id);
    await openFold(page, id);  // the maps in the fold count too
    const canvases = page.locator(`#${id} canvas.heatmap[data-grid]`);
    for (let k = 0; k < await canvases.count(); k++) {
      const canvas = canvases.nth(k);
      if (!(await canvas.evaluate((el) => el.checkVisibility()))) continue;
      maps++;
      const [rows, cols] = (await canvas.getAttribute('data-grid')).split('x').map(Number);
      // A cell on or below the diagonal (causal maps mask the rest), inside the map.
      const row = Math.floor(rows * 0.62);
      const col = Math.floor(cols * 0.31);
      const line = hoverLine(canvas);
      const hint = await line.textContent();
      const p = await pointIn(canvas, (col + 0.5) / cols, (row + 0.5) / rows);
      await tap(page, p);
      const tapped = await line.textContent();
      assert.notEqual(tapped, hint, `${id} map ${k}: a tap on cell ${row},${col} reads nothing`);
      // The same cell under a mouse: the hover text; the mouse leaving clears it (so the text
      // was the cursor's, not something the tap's selection wrote).
      const q = await pointIn(canvas, (col + 0.5) / cols, (row + 0.5) / rows);
      await page.mouse.move(q.x, q.y);
      assert.equal(await line.textContent(), tapped, `${id} map ${k}: tap and hover read cell ${row},${col} alike`);
      await page.mouse.move(1, 1);
      assert.notEqual(await line.textContent(), tapped, `${id} map ${k}: the mouse leaving clears the reading`);
    }
    assert.deepEqual(page.errors, [], id);
  }
  await page.close();
  assert.ok(!WHOLE_WALK || maps >= 7, `${maps} heatmaps tapped`);
});

test('a tap on a sinusoidal cell reads PE(pos, dim); on a vision patch it chooses the patch', async () => {
  const page = await open('sinusoidal');
  const canvas = page.locator('#sinusoidal canvas.heatmap');
  const line = page.locator('#sinusoidal .hover-readout');
  for (const [pos, dim] of [[30, 15], [7, 2], [49, 19]]) {
    const p = await pointIn(canvas, (dim + 0.5) / 20, (pos + 0.5) / 50);
    await tap(page, p);
    assert.equal(await line.textContent(), `position ${pos}, dimension ${dim}: ${minus(pe(pos, dim).toFixed(4))}`);
    // The tap is also a click: the cell is chosen, as with a mouse.
    assert.deepEqual([(await urlParams(page)).pos, (await urlParams(page)).dim], [String(pos), String(dim)]);
  }
  await page.close();

  const vision = await open('vision', 'grid=16&r=2&c=3');
  const map = vision.locator('#vision .vision-main canvas.heatmap');
  for (const [r, c] of [[7, 11], [15, 0]]) {
    const p = await pointIn(map, (c + 0.5) / 16, (r + 0.5) / 16);
    await tap(vision, p);
    assert.deepEqual([(await urlParams(vision)).r, (await urlParams(vision)).c], [String(r), String(c)]);
    // The chosen patch against itself: cosine 1.
    assert.equal(await vision.textContent('#vision .vision-main .hover-readout'), `row ${r}, column ${c}: 1.000`);
  }
  assert.deepEqual([...page.errors, ...vision.errors], []);
  await vision.close();
});

test('a tap on any line plot puts the cursor on the nearest point and reads what the arrow keys read there', async () => {
  let plots = 0;
  const page = await open(STEP_IDS[0]);
  for (const id of STEP_IDS) {
    await showStep(page, id);
    const svgs = page.locator(`#${id} svg.lineplot:not(.logplot)`);
    for (let k = 0; k < await svgs.count(); k++) {
      const svg = svgs.nth(k);
      if (!(await svg.evaluate((el) => el.checkVisibility()))) continue;
      plots++;
      const announcer = svg.locator('xpath=..').locator('.plot-announcer');
      const dots = () => svg.evaluate(plotDots, 'a');
      const ring = () => svg.evaluate((el) => {
        const c = el.querySelector('.plot-cursor circle.cursor-ring');
        return c && [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))];
      });
      await svg.scrollIntoViewIfNeeded();
      const before = await dots();
      assert.ok(before.length > 1, `${id}: the cursor series has points`);
      const at = Math.floor(before.length / 2);
      await tap(page, before[at]);
      // A step may answer the tap as a click (compare moves its key position) and redraw: read
      // the points again.
      const after = await dots();
      assert.ok(samePoint(await ring(), [after[at].cx, after[at].cy]), `${id} plot ${k}: the cursor is on point ${at}`);
      const tapped = await announcer.textContent();
      assert.ok(tapped.length > 0, `${id} plot ${k}: the tap is read out`);
      await svg.focus();
      await page.keyboard.press('Home');
      for (let i = 0; i < at; i++) await page.keyboard.press('ArrowRight');
      assert.equal(await announcer.textContent(), tapped, `${id} plot ${k}: tap and keys read point ${at} alike`);
    }
    assert.deepEqual(page.errors, [], id);
  }
  await page.close();
  // The plots outside the folds (the learner's path moved some into them): 7 with every fold closed.
  assert.ok(!WHOLE_WALK || plots >= 7, `${plots} line plots tapped`);
});

test('a finger drags a slider: the value, the readout and the URL follow, the page stays put', async () => {
  const page = await open('sinusoidal', 'pos=10&dim=4');
  const input = page.locator('#sinusoidal input[name=pos]');
  await input.scrollIntoViewIfNeeded();
  const box = await input.boundingBox();
  const still = await scroll(page);
  // From the thumb (pos 10 of 0..49) to about 80 % along the track.
  const y = box.y + box.height / 2;
  await drag(page, { x: box.x + box.width * (10 / 49), y }, { x: box.x + box.width * 0.8, y });
  const pos = Number(await input.inputValue());
  assert.ok(pos >= 34 && pos <= 44, `the thumb followed the finger to ${pos}`);
  assert.equal((await urlParams(page)).pos, String(pos));
  const value = pe(pos, 4);
  const shown = await page.locator('#sinusoidal [data-readout="value"]').getAttribute('data-value');
  assert.ok(Math.abs(Number(shown) - value) < 2e-6, `value readout ${shown} vs PE(${pos}, 4) = ${value}`);
  assert.deepEqual(await scroll(page), still, 'the page did not pan under the drag');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a finger drags the heatmap cursor across cells and lets go on the one it wants; the page does not pan under it', async () => {
  const page = await open('sinusoidal', 'pos=10&dim=4');
  const canvas = page.locator('#sinusoidal canvas.heatmap');
  const line = page.locator('#sinusoidal .hover-readout');
  const from = await pointIn(canvas, 2.5 / 20, 5.5 / 50);
  const to = await pointIn(canvas, 12.5 / 20, 40.5 / 50);
  const still = await scroll(page);
  await drag(page, from, to, 12);
  assert.equal(await line.textContent(), `position 40, dimension 12: ${minus(pe(40, 12).toFixed(4))}`);
  assert.deepEqual(await scroll(page), still, 'the page did not pan under the drag');
  // On the sinusoidal map a row is 7 px tall on a phone, too small to tap (students): the cell the
  // finger lets go of is chosen, the sliders and the URL move there.
  await page.waitForFunction(() => new URLSearchParams(location.search).get('pos') === '40');
  assert.deepEqual([(await urlParams(page)).pos, (await urlParams(page)).dim], ['40', '12']);
  assert.equal(await page.inputValue('#sinusoidal input[name=pos]'), '40');
  assert.equal(await page.inputValue('#sinusoidal input[name=dim]'), '12');
  // Dragged past the map's edge, the cursor stays on the last cell it was over.
  const edge = await pointIn(canvas, 1.03, 40.5 / 50);
  await drag(page, to, edge, 30);
  assert.match(await line.textContent(), /^position 40, dimension 19: /);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// Students could not tell which row is position 10: the map has numbers on both axes, each
// centred on its row or column, at a size a phone can read.
test('the sinusoidal map numbers its rows and columns, each number centred on its own row or column', async () => {
  const page = await open('sinusoidal');
  const canvas = page.locator('#sinusoidal canvas.heatmap');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  const ticks = await page.$$eval('#sinusoidal .heatmap-ticks', (groups) => groups.map((g) => ({
    axis: g.classList.contains('ticks-x') ? 'x' : 'y',
    marks: [...g.children].map((t) => {
      const r = t.getBoundingClientRect();
      return { text: t.textContent, cx: r.x + r.width / 2, cy: r.y + r.height / 2, px: parseFloat(getComputedStyle(t).fontSize) };
    }),
  })));
  const x = ticks.find((t) => t.axis === 'x');
  const y = ticks.find((t) => t.axis === 'y');
  assert.deepEqual(x.marks.map((t) => t.text), ['0', '5', '10', '15', '19']);
  assert.deepEqual(y.marks.map((t) => t.text), ['0', '10', '20', '30', '40', '49']);
  for (const t of x.marks) {
    const col = Number(t.text);
    assert.ok(Math.abs(t.cx - (box.x + ((col + 0.5) / 20) * box.width)) < 1, `column ${col}'s number sits over its column`);
    assert.ok(t.cy < box.y, `column ${col}'s number is above the map`);
  }
  for (const t of y.marks) {
    const row = Number(t.text);
    assert.ok(Math.abs(t.cy - (box.y + ((row + 0.5) / 50) * box.height)) < 1, `row ${row}'s number sits beside its row`);
    assert.ok(t.cx < box.x, `row ${row}'s number is left of the map`);
  }
  for (const t of [...x.marks, ...y.marks]) assert.ok(t.px >= 12, `${t.text}: ${t.px} px`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('at 320 px no step scrolls sideways, a box that does shades its hidden edge and keeps its table\'s caption in view, and every figure keeps its text inside its box, in any language', async () => {
  const narrow = await browser.newContext({ viewport: { width: 320, height: 640 }, hasTouch: true, isMobile: true });
  const page = await narrow.newPage();
  const wide = [];
  let scrolling = 0;  // boxes inside the steps that scroll sideways here
  let captions = 0;   // tables with a caption among them
  for (const lang of LANGUAGES) {
    await page.goto(`${server.url}?step=${STEP_IDS[0]}&lang=${lang}`);
    await page.waitForSelector('body[data-ready=true]');
    for (const id of STEP_IDS) {
      await showStep(page, id);
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.scrollingElement.scrollWidth, innerWidth }));
      // A mobile viewport widens to fit content too wide for it: innerWidth grows with it.
      if (scrollWidth > 320 || innerWidth > 320) wide.push(`${lang} ${id}: ${scrollWidth} px`);
      const { out } = await page.evaluate(textsOutsideFigures, id);
      wide.push(...out.map((o) => `${lang} ${id} at 320 px: ${o}`));
      // A wide table or formula scrolls inside its box; the box shades the edge where more lies
      // (styles.css --scroll-shade), or a reader sees a word cut off with nothing to say why.
      // (The code step's snippets are text areas, which read as scrollable text.)
      const boxes = await page.evaluate(scrollBoxes, id);
      scrolling += boxes.length;
      captions += boxes.filter(([, , inside]) => inside !== null).length;
      wide.push(...boxes.filter(([, shaded]) => !shaded).map(([cls]) => `${lang} ${id} at 320 px: .${cls} scrolls sideways without the edge shade`));
      wide.push(...boxes.filter(([, , inside]) => inside === false).map(([cls]) => `${lang} ${id} at 320 px: the caption in .${cls} runs past the box`));
    }
  }
  // Since the learner's path no table or formula needs to scroll at 320 px. So that the shade
  // and caption checks still meet a box, one table is made too wide, as a longer translation or
  // a bigger number would: the train step's results table, its caption above it.
  if (scrolling === 0 || captions === 0) {
    await page.goto(`${server.url}?step=train&deeper=1`);
    await page.waitForSelector('#train:not([data-busy]) .train-table-wrap table caption');
    await page.evaluate(() => { document.querySelector('#train .train-table-wrap table').style.minWidth = '900px'; });
    const forced = await page.evaluate(scrollBoxes, 'train');
    assert.ok(forced.length > 0, 'a table of 900 px scrolls inside its box at 320 px');
    for (const [cls, shaded, inside] of forced) {
      assert.ok(shaded, `.${cls} scrolls sideways without the edge shade`);
      if (inside !== null) captions++;
      assert.notEqual(inside, false, `the caption in .${cls} runs past the box`);
    }
  }
  await narrow.close();
  assert.deepEqual(wide, []);
  assert.ok(!WHOLE_WALK || captions > 0, 'no sideways-scrolling table has a caption at 320 px: the caption check checked nothing');
});

/** The boxes of a step that scroll sideways: [class, shaded edge, caption inside the box (null: none)]. */
function scrollBoxes(step) {
  return [...document.querySelectorAll(`#${step} :not(textarea)`)]
    .filter((el) => el.checkVisibility() && el.scrollWidth > el.clientWidth + 1 && /auto|scroll/.test(getComputedStyle(el).overflowX))
    .map((el) => {
      // A caption as wide as its table would run past the box's edge, its end out of sight.
      const caption = el.querySelector(':scope > table > caption');
      const inside = caption && caption.getBoundingClientRect().right <= el.getBoundingClientRect().right + 1;
      return [el.className, getComputedStyle(el).backgroundAttachment.includes('local'), caption ? inside : null];
    });
}

// Text cut by the screen's edge or run into its neighbour (tests/browser/text-boxes.js), at a
// phone's width, where the kit sets SVG text larger, and in every language, whose labels differ
// in length.
test('at 375 px every figure keeps its text inside its box, in any language', async () => {
  const page = await newPhonePage();
  const outside = [];
  let texts = 0;
  for (const lang of LANGUAGES) {
    await page.goto(`${server.url}?step=${STEP_IDS[0]}&lang=${lang}`);
    await page.waitForSelector('body[data-ready=true]');
    for (const id of STEP_IDS) {
      await showStep(page, id);
      const found = await page.evaluate(textsOutsideFigures, id);
      texts += found.n;
      outside.push(...found.out.map((o) => `${lang} ${id}: ${o}`));
    }
  }
  await page.close();
  assert.ok(!WHOLE_WALK || texts > 200, `${texts} texts checked`);
  assert.deepEqual(outside, []);
});
