// The learner's path on a phone (issue 39): the six steps of the idea read figure first, each in
// at most three screens of 375 × 700 px with its first figure on the first one, in every
// language; in those and the field's steps nothing is hidden by a box that scrolls sideways, no
// two formula lines run into each other, no text is under 12 px; the "Go deeper" fold opens from
// the URL, writes its state back, and opens for printing; the masthead is a title and a line,
// and the navigation and the card say "3 of 6". The train step is its own issue's (its checks
// are left to it).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { LANGUAGES } from '../../web/i18n.js';
import { chromiumBrowser, serveForTests, startBrowser } from './browser.js';
import { brokenFormulas, cardMeasure, clippedScrollers, overlappingFormulas, smallText } from './phone-checks.js';
import { openStep, pageUrl, showStep, urlParams } from './steps.js';
import { ALL_STEP_IDS } from './step-ids.js';

const IDEA = ALL_STEP_IDS.slice(0, 6);
// The rest of the field, but the train step (its phone layout is another issue's).
const FIELD = ALL_STEP_IDS.slice(6).filter((id) => id !== 'train');
// Every step with a Go deeper fold: all but train, which has its own layout.
const FOLDED = [...IDEA, ...FIELD];
const PHONE = { width: 375, height: 700 };
const SCREENS = 3;

let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

const catalogs = {};
/** A message of web/i18n/<lang>/<part>.json, read here (not from the page). */
async function message(lang, part, key) {
  catalogs[`${lang}/${part}`] ??= JSON.parse(await readFile(new URL(`../../web/i18n/${lang}/${part}.json`, import.meta.url), 'utf8'));
  return catalogs[`${lang}/${part}`][key];
}

/**
 * Waits until the address says deeper=`want` (undefined: no deeper) with nothing waiting to be
 * written: a fold's toggle event, which writes it, comes a task after the click or key.
 */
async function addressSays(page, want) {
  await page.waitForFunction((w) => !document.body.dataset.urlPending && (new URLSearchParams(location.search).get('deeper') ?? undefined) === (w ?? undefined), want);
  return (await urlParams(page)).deeper;
}

/** Opens step `id` in `page` (moved there by its URL) and waits until it is drawn. */
async function open(page, id, query) {
  await page.goto(`${b.url}?step=${id}&${query}`);
  await page.waitForSelector(`#${id}[data-shown=true]:not([hidden]):not([data-busy])`);
  // The figures fit themselves to their box a frame after it is shown.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

for (const lang of LANGUAGES) {
  test(`${lang}, 375 × 700: each step of the idea is at most ${SCREENS} screens with its figure on the first, nothing clipped sideways, no formula lines overlapping, no text under 12 px (folds closed, then open)`, async () => {
    const page = await b.newPage({ viewport: PHONE });
    const problems = [];
    let formulas = 0;
    let texts = 0;
    for (const id of IDEA) {
      for (const deeper of [false, true]) {
        await open(page, id, `lang=${lang}${deeper ? '&deeper=1' : ''}`);
        const what = `${lang} ${id}${deeper ? ', fold open' : ''}`;
        assert.equal(await page.evaluate((s) => document.querySelector(`#${s} details.deeper`)?.open, id), deeper, `${what}: the fold is ${deeper ? 'open' : 'closed'}`);
        if (!deeper) {
          const { height, figure, above } = await page.evaluate(cardMeasure, id);
          if (height > SCREENS * PHONE.height) problems.push(`${what}: the card is ${Math.round(height)} px, ${(height / PHONE.height).toFixed(2)} screens`);
          if (figure === null || figure > PHONE.height) problems.push(`${what}: the first figure starts ${figure} px into the card`);
          // The masthead is a title and a line, and the navigation one more: it took 592 px.
          if (above > 300) problems.push(`${what}: the card starts ${Math.round(above)} px down the page`);
        }
        problems.push(...(await page.evaluate(clippedScrollers, id)).map((c) => `${what}: clipped sideways: ${c}`));
        const overlap = await page.evaluate(overlappingFormulas, id);
        formulas += overlap.n;
        problems.push(...overlap.out.map((o) => `${what}: ${o}`));
        const small = await page.evaluate(smallText, id);
        texts += small.n;
        problems.push(...small.out.map((o) => `${what}: ${o}`));
        assert.deepEqual(page.errors, [], what);
      }
    }
    await page.close();
    assert.deepEqual(problems, []);
    // The checks reached what they check: formulas in every step but one, hundreds of texts.
    assert.ok(formulas >= 20, `${formulas} formulas checked`);
    assert.ok(texts >= 500, `${texts} texts checked`);
  });

  test(`${lang}, 375 × 700: the field's steps (train aside), folds open, clip nothing sideways, overlap no formula lines, set no text under 12 px`, async () => {
    const page = await b.newPage({ viewport: PHONE });
    const problems = [];
    let formulas = 0;
    let texts = 0;
    // With the fold open everything the closed step shows is checked too.
    for (const id of FIELD) {
      await open(page, id, `lang=${lang}&deeper=1`);
      const what = `${lang} ${id}`;
      problems.push(...(await page.evaluate(clippedScrollers, id)).map((c) => `${what}: clipped sideways: ${c}`));
      const overlap = await page.evaluate(overlappingFormulas, id);
      formulas += overlap.n;
      problems.push(...overlap.out.map((o) => `${what}: ${o}`));
      const small = await page.evaluate(smallText, id);
      texts += small.n;
      problems.push(...small.out.map((o) => `${what}: ${o}`));
      assert.deepEqual(page.errors, [], what);
    }
    await page.close();
    assert.deepEqual(problems, []);
    // Formulas in eight of the eleven steps; a thousand texts and more.
    assert.ok(formulas >= 20, `${formulas} formulas checked`);
    assert.ok(texts >= 1000, `${texts} texts checked`);
  });
}

test('at 320 px, folds open, no step hides content in a box that scrolls sideways or runs formula lines together: the idea in every language, the field in the longest two (id, ru)', async () => {
  const page = await b.newPage({ viewport: { width: 320, height: 640 } });
  const problems = [];
  for (const lang of LANGUAGES) {
    for (const id of [...IDEA, ...(['id', 'ru'].includes(lang) ? FIELD : [])]) {
      await open(page, id, `lang=${lang}&deeper=1`);
      problems.push(...(await page.evaluate(clippedScrollers, id)).map((c) => `${lang} ${id}: ${c}`));
      problems.push(...(await page.evaluate(overlappingFormulas, id)).out.map((o) => `${lang} ${id}: ${o}`));
    }
  }
  await page.close();
  assert.deepEqual(problems, []);
});

// Second student read: line breaks inside formulas in the prose ("Σ|qᵢ|" / "²", "(m −" / "n))",
// "cos" / "0 = 1") at phone widths. The six steps, folds open, every language, at 320 and 375 px.
test('at 320 and 375 px, folds open, no line breaks inside a formula in the six steps\' prose, in any language', async () => {
  const problems = [];
  let checked = 0;
  for (const width of [320, 375]) {
    const page = await b.newPage({ viewport: { width, height: 700 } });
    for (const lang of LANGUAGES) {
      for (const id of IDEA) {
        await open(page, id, `lang=${lang}&deeper=1`);
        const broken = await page.evaluate(brokenFormulas, id);
        checked += broken.n;
        problems.push(...broken.out.map((o) => `${width} px ${lang} ${id}: ${o}`));
      }
    }
    await page.close();
  }
  assert.deepEqual(problems, []);
  // Dozens of operators and inline formulas in each language's six steps.
  assert.ok(checked >= 400, `${checked} formulas checked`);
});

test('?deeper=1 opens the fold of every step that has one (all but train); a toggle by mouse or keyboard writes it to the address, closed leaves it out', async () => {
  for (const id of FOLDED) {
    const page = await openStep(b, id, 'deeper=1');
    const fold = page.locator(`#${id} details.deeper`);
    assert.equal(await fold.evaluate((d) => d.open), true, `${id}: open from the URL`);
    assert.ok(await fold.locator('.deeper-body > *').first().isVisible(), `${id}: its content shows`);
    assert.equal((await urlParams(page)).deeper, '1', `${id}: the address keeps deeper=1`);
    await fold.locator('summary').click();
    assert.equal(await fold.evaluate((d) => d.open), false);
    assert.equal(await addressSays(page, undefined), undefined, `${id}: closed, the address leaves deeper out`);
    // The keyboard: the summary is a button (Enter opens it).
    await fold.locator('summary').focus();
    await page.keyboard.press('Enter');
    assert.equal(await fold.evaluate((d) => d.open), true, `${id}: Enter opens it`);
    assert.equal(await addressSays(page, '1'), '1');
    // The step's own state is kept beside it, and another step starts with its fold closed.
    const next = FOLDED[(FOLDED.indexOf(id) + 1) % FOLDED.length];
    await showStep(page, next);
    assert.equal(await page.locator(`#${next} details.deeper`).evaluate((d) => d.open), false, `${next}: closed when moved to`);
    assert.equal((await urlParams(page)).deeper, undefined);
    assert.deepEqual(page.errors, [], id);
    await page.close();
  }
});

test('an embed with deeper=1 shows the step with its fold open; its Embed snippet carries the fold', async () => {
  const page = await b.newPage();
  await page.goto(`${b.url}?step=rope&qpos=4&embed=1&deeper=1`);
  await page.waitForSelector('body[data-ready=true]');
  assert.equal(await page.locator('#rope details.deeper').evaluate((d) => d.open), true);
  assert.ok(await page.isVisible('#rope .rope-pair0'));
  await page.close();
  const full = await openStep(b, 'rope', 'qpos=4&deeper=1');
  await full.locator('#rope button[name=embed]').click();
  const src = new URL((await full.inputValue('#rope .embed-code')).match(/<iframe src="([^"]+)"/)[1]);
  assert.equal(src.searchParams.get('deeper'), '1');
  assert.equal(src.searchParams.get('embed'), '1');
  await full.locator('#rope details.deeper > summary').click();
  await full.locator('#rope button[name=embed]').click();  // closes the panel
  await full.locator('#rope button[name=embed]').click();  // opens it with the state now
  assert.equal(new URL((await full.inputValue('#rope .embed-code')).match(/<iframe src="([^"]+)"/)[1]).searchParams.get('deeper'), null);
  assert.deepEqual(full.errors, []);
  await full.close();
});

test('printing opens the fold of every step that has one and closes them after, without writing the address', async () => {
  const page = await openStep(b, IDEA[2], '', { whole: true });
  await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
  await page.emulateMedia({ media: 'print' });
  const printed = await page.evaluate((ids) => ids.map((id) => {
    const fold = document.querySelector(`#${id} details.deeper`);
    return { id, open: fold?.open ?? null, shown: !!fold && [...fold.querySelector('.deeper-body').children].some((c) => c.checkVisibility()) };
  }), FOLDED);
  for (const f of printed) assert.deepEqual(f, { id: f.id, open: true, shown: true });
  await page.emulateMedia({ media: 'screen' });
  await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
  // The toggle events the print made arrive a task later: wait for them, then read.
  await page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
  assert.deepEqual(await page.evaluate((ids) => ids.filter((id) => document.querySelector(`#${id} details.deeper`).open), FOLDED), []);
  assert.equal(new URL(await pageUrl(page)).searchParams.get('deeper'), null);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test(`the card says "Step 3 of 6" and the rest of the field "1 of ${ALL_STEP_IDS.length - 6}"; on a phone the navigation is one line, "3 of 6 · Frequency bands", that opens both titled lists`, async () => {
  for (const lang of LANGUAGES) {
    const page = await openStep(b, 'frequencies', `lang=${lang}`, { viewport: PHONE });
    const [stepOf, fieldOf, placeIdea, title] = await Promise.all([
      message(lang, 'page', 'page.stepOf'), message(lang, 'page', 'page.fieldOf'), message(lang, 'page', 'page.placeIdea'),
      message(lang, 'titles', 'titles.frequencies')]);
    const fill = (text, n, total) => text.replace('{n}', n).replace('{total}', total);
    assert.equal((await page.textContent('#frequencies .step-count')).trim(), fill(stepOf, 3, 6));
    const toggle = page.locator('#step-nav .nav-toggle');
    assert.equal((await toggle.textContent()).trim(), `${fill(placeIdea, 3, 6)} · ${title}`);
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.locator('#step-nav .step-link').first().isVisible(), false, 'the lists are folded on a phone');
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    // Both groups, each counted from 1, every step by its title.
    const groups = await page.$$eval('#step-nav ol', (ols) => ols.map((ol) => [...ol.querySelectorAll('.step-link')]
      .map((bt) => [bt.querySelector('.step-number').textContent, bt.querySelector('.step-name').checkVisibility()])));
    assert.deepEqual(groups.map((g) => g.length), [6, ALL_STEP_IDS.length - 6]);
    for (const g of groups) g.forEach(([n, named], i) => assert.deepEqual([n, named], [String(i + 1), true]));
    // A field step: its card and the line say where the rest of the field begins.
    await page.locator('#step-nav [data-step=learned]').click();
    await page.waitForSelector('#learned[data-shown=true]:not([hidden])');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false', 'choosing a step folds the lists');
    assert.equal((await page.textContent('#learned .step-count')).trim(), fill(fieldOf, 2, ALL_STEP_IDS.length - 6));
    assert.ok((await toggle.textContent()).trim().startsWith(fill(fieldOf, 2, ALL_STEP_IDS.length - 6)));
    assert.deepEqual(page.errors, [], lang);
    await page.close();
  }
});

test('on a phone the masthead is the title and one line: language, theme and the Lab behind Menu, which Escape closes; the engine line is in the footer', async () => {
  const page = await openStep(b, 'order', '', { viewport: PHONE, whole: true });
  const menu = page.locator('#menu-button');
  assert.ok(await menu.isVisible());
  assert.equal(await page.isVisible('#lang-select'), false);
  assert.equal(await page.isVisible('[data-theme-option=dark]'), false);
  assert.match(await page.textContent('.page-footer #engine'), /SIMD|scalar/);
  assert.equal(await page.isVisible('.masthead #engine'), false, 'no engine line in the masthead');
  await menu.click();
  assert.equal(await menu.getAttribute('aria-expanded'), 'true');
  assert.ok(await page.isVisible('#lang-select'));
  assert.ok(await page.isVisible('#lab-link a'));
  await page.locator('#lang-select').focus();
  await page.keyboard.press('Escape');
  assert.equal(await menu.getAttribute('aria-expanded'), 'false');
  assert.equal(await page.isVisible('#lang-select'), false);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'menu-button', 'the focus goes back to Menu');
  // On a wide screen the tools show and Menu does not.
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.equal(await menu.isVisible(), false);
  assert.ok(await page.isVisible('#lang-select'));
  assert.deepEqual(page.errors, []);
  await page.close();
});

// Every step whose figure a reader reads by pointing: the hint under it and its catalog key.
const HINTS = [
  { step: 'sinusoidal', query: '', key: 'sinusoidal.hoverHint', part: 'sinusoidal' },
  { step: 'learned', query: '', key: 'learned.mapHint', part: 'learned' },
  { step: 'relative-bias', query: 'method=shaw', key: 'relative-bias.shaw.hoverHint', part: 'relative-bias' },
  { step: 'relative-bias', query: 'method=t5', key: 'relative-bias.t5.hoverHint', part: 'relative-bias' },
  { step: 'alibi', query: '', key: 'alibi.mapHint', part: 'alibi' },
  { step: 'attention', query: '', key: 'attention.hoverHint', part: 'attention' },
  { step: 'vision', query: '', key: 'vision.hoverHint', part: 'vision' },
];

/**
 * A phone as the page sees it: touch, and no hover (hover: none, pointer: coarse) set through
 * CDP, since a touch context alone may still report a mouse's hover.
 */
async function touchPage(context) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setEmulatedMedia', { features: [{ name: 'hover', value: 'none' }, { name: 'pointer', value: 'coarse' },
    { name: 'any-hover', value: 'none' }, { name: 'any-pointer', value: 'coarse' }] });
  return page;
}

test('a touch screen\'s hints say tap, a mouse\'s say point, in every step with a map and every language; the vertical axis arrow stands upright', async () => {
  const server = await serveForTests();
  const browser = await chromiumBrowser();
  let checked = 0;
  let leads = 0;
  try {
    for (const touch of [true, false]) {
      const context = await browser.newContext({ viewport: PHONE, hasTouch: touch, isMobile: touch });
      const page = touch ? await touchPage(context) : await context.newPage();
      assert.equal(await page.evaluate(() => matchMedia('(hover: hover)').matches), !touch, touch ? 'no hover on the phone' : 'hover with a mouse');
      for (const lang of LANGUAGES) {
        for (const { step, query, key, part } of HINTS) {
          // The fold open: a map in it has its hint too.
          await page.goto(`${server.url}?step=${step}&lang=${lang}&deeper=1&${query}`);
          await page.waitForSelector(`#${step}[data-shown=true]:not([hidden]):not([data-busy])`);
          const [mouse, finger] = await Promise.all([message(lang, part, key), message(lang, part, `${key}Touch`)]);
          assert.ok(finger && finger !== mouse, `${lang} ${key}Touch is in the catalog`);
          const shown = await page.$$eval(`#${step} .hover-readout`, (els) => els.filter((el) => el.checkVisibility()).map((el) => el.textContent));
          const what = `${lang} ${step} ${query} (${touch ? 'touch' : 'mouse'})`;
          assert.ok(shown.includes(touch ? finger : mouse), `${what}: "${shown.join(' | ')}"`);
          assert.ok(!shown.includes(touch ? mouse : finger), `${what}: the other hint shows`);
          checked++;
          // A lead that says "click a patch" has a touch text too.
          const leadTouch = await message(lang, part, `${step}.leadTouch`);
          if (leadTouch) {
            const lead = await page.$$eval(`#${step} .lead`, (ps) => ps.map((p) => p.textContent));
            assert.deepEqual(lead, touch ? leadTouch : await message(lang, part, `${step}.lead`), `${what}: the lead`);
            leads++;
          }
        }
      }
      // The map's description keeps the arrow keys either way; "posisi ↓": in the vertical
      // writing mode the arrow is set upright, so it points down.
      await page.goto(`${server.url}?step=sinusoidal&lang=id`);
      await page.waitForSelector('#sinusoidal[data-shown=true]');
      const keys = await page.getAttribute('#sinusoidal canvas.heatmap', 'aria-describedby');
      assert.equal(await page.textContent(`#${keys}`), await message('id', 'sinusoidal', 'sinusoidal.hoverHint'));
      assert.deepEqual(await page.$eval('#sinusoidal .axis-y .upright', (el) => [el.textContent, getComputedStyle(el).textCombineUpright]), ['↓', 'all']);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  assert.equal(checked, 2 * LANGUAGES.length * HINTS.length);
  assert.equal(leads, 2 * LANGUAGES.length, 'vision\'s lead, touch and mouse, in every language');
});

test('RoPE\'s turns line keeps each phrase on one line, in every language ("3,00 rad · k / berputar" read as a product)', async () => {
  const page = await b.newPage({ viewport: PHONE });
  for (const lang of LANGUAGES) {
    for (const [qpos, kpos] of [[3, 7], [19, 18], [12, 5]]) {
      await open(page, 'rope', `lang=${lang}&deeper=1&qpos=${qpos}&kpos=${kpos}`);
      const phrases = await page.$$eval('#rope .rope-turns-phrase', (els) => els.map((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        return { text: el.textContent, lines: lines.size };
      }));
      assert.equal(phrases.length, 3, `${lang}: three phrases`);
      for (const p of phrases) assert.equal(p.lines, 1, `${lang} (${qpos}, ${kpos}): "${p.text}" wraps`);
    }
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('before the core is ready the opened step shows its place, title, subtitle and lead, over a box that holds at least a screen for its figures', async () => {
  for (const [id, lang] of [['rope', 'id'], ['alibi', 'ru']]) {
    const page = await b.newPage({ viewport: PHONE });
    // The core's .wasm never arrives: what shows is what paints before it.
    let held = 0;
    await page.route(/\.wasm(\?|$)/, () => { held++; });
    await page.goto(`${b.url}?step=${id}&lang=${lang}`);
    const [title, subtitle, lead] = await Promise.all([message(lang, 'titles', `titles.${id}`), message(lang, id, `${id}.subtitle`), message(lang, id, `${id}.lead`)]);
    await page.waitForSelector(`#${id}:not([hidden]) h2`);
    const shell = await page.evaluate((s) => {
      const card = document.getElementById(s);
      const box = card.querySelector('.step-pending');
      return {
        title: card.querySelector('h2').textContent, subtitle: card.querySelector('.subtitle').textContent,
        lead: [...card.querySelectorAll('.lead')].map((p) => p.textContent),
        busy: box?.getAttribute('aria-busy'), room: box?.getBoundingClientRect().height, shown: card.dataset.shown ?? null,
      };
    }, id);
    assert.ok(held >= 1, `${id}: the core's .wasm was asked for and held`);
    // A formula's operator is glued to its neighbours by no-break spaces (kit/step.js): compare
    // the words, reading those as spaces.
    const words = (t) => (Array.isArray(t) ? t.map(words) : t.replace(/\u00a0/g, ' '));
    assert.deepEqual({ ...shell, subtitle: words(shell.subtitle), lead: words(shell.lead), room: undefined },
      { title, subtitle: words(subtitle), lead: words(lead), busy: 'true', room: undefined, shown: null }, `${lang} ${id}`);
    // The figures' room: a screen, so nothing below the text moves on the screen when they come.
    assert.ok(shell.room >= PHONE.height, `${id}: ${shell.room} px held for the figures`);
    await page.close();
  }
});
