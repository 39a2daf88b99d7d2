// Accessibility in Chromium (WCAG 2.1 AA): axe-core on every step in each language, theme and at a
// phone's width, and on the text after the steps; keyboard operation with a visible focus ring;
// what the figures say to screen readers; one live region per control change; forced colours;
// reduced motion; the theme switch.
// Steps are read from the registry (step-ids.js), so a step added later is checked as well.
// The server sends the strict CSP: axe is injected with page.evaluate, never a <script> tag.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { LANGUAGES } from '../../web/i18n.js';
import { startBrowser } from './browser.js';
import { openFold, openStep, plotDots, samePoint, showStep, pageUrl } from './steps.js';
import { STEP_IDS, WHOLE_WALK } from './step-ids.js';
import { FAQ_COUNT, REFERENCE_COUNT } from './content-counts.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
// WCAG 2.0 and 2.1, levels A and AA, plus axe's best practices (landmarks, heading order, ...).
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

/**
 * axe's violations in `selector` (the whole page by default), one readable line per node. A walk
 * over the steps checks the whole page at its first step and each later step's own section: the
 * header, the step list and the text after the steps are the same page around every step.
 */
async function axeViolations(page, selector = null) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE);
  const violations = await page.evaluate(async ({ selector, tags }) => {
    const result = await window.axe.run(selector ? document.querySelector(selector) : document,
      { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations;
  }, { selector, tags: TAGS });
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}: ${n.failureSummary.replace(/\s+/g, ' ')}`));
}

/**
 * Contrast of every visible SVG <text> in `root` against the card colour behind the figures
 * (axe does not measure SVG text): [{ text, ratio }] of those under 4.5:1. Opacity on the text
 * or its ancestors is blended in.
 */
async function svgTextContrast(page, root) {
  return page.evaluate((rootSel) => {
    const rgb = (css) => (css.match(/[\d.]+/g) ?? []).slice(0, 4).map(Number);
    const lum = ([r, g, b]) => {
      const lin = (c) => { const x = c / 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const card = rgb(getComputedStyle(document.documentElement).getPropertyValue('--card').trim().replace(/^#(..)(..)(..)$/,
      (_, r, g, b) => `rgb(${parseInt(r, 16)}, ${parseInt(g, 16)}, ${parseInt(b, 16)})`));
    const bad = [];
    for (const t of document.querySelector(rootSel).querySelectorAll('svg text')) {
      if (!t.checkVisibility() || !t.textContent.trim()) continue;
      const cs = getComputedStyle(t);
      const [r, g, bl, a = 1] = rgb(cs.fill);
      let alpha = a * Number(cs.fillOpacity);
      for (let el = t; el && el.tagName !== 'svg'; el = el.parentElement) alpha *= Number(getComputedStyle(el).opacity);
      const fg = [r, g, bl].map((c, i) => c * alpha + card[i] * (1 - alpha));
      const [hi, lo] = [lum(fg), lum(card)].sort((x, y) => y - x);
      const ratio = (hi + 0.05) / (lo + 0.05);
      if (ratio < 4.5) bad.push({ text: t.textContent.trim(), cls: t.getAttribute('class'), ratio: Number(ratio.toFixed(2)) });
    }
    return bad;
  }, root);
}

/**
 * The walks over every step with every axe rule: each language once, the themes in turn, and a
 * phone's width once (in Russian, whose labels run long). What axe checks depends on one of these
 * at a time: names and labels on the language, contrast on the theme's palette, reflow and
 * scrolling boxes on the width. So every language, theme and width is checked, not every
 * combination: the six walks this replaced (both themes in English, the three other languages, a
 * phone's width) took 139 s of a11y.test.js's 245 s in one npm test run.
 */
const WALKS = LANGUAGES.map((lang, k) => ({
  lang,
  theme: k % 2 ? 'dark' : 'light',
  width: k === LANGUAGES.length - 1 ? 375 : 1280,
}));

for (const { lang, theme, width } of WALKS) {
  test(`axe finds no WCAG 2.1 AA violation on any step, nor SVG text under 4.5:1 (${lang}, ${theme} theme, ${width} px)${width < 800 ? '; sideways-scrolling boxes take focus' : ''}`, async (t) => {
    let scrollers = 0;
    const page = await openStep(b, STEP_IDS[0], `lang=${lang}&theme=${theme}`, { whole: true, viewport: { width, height: width < 800 ? 800 : 900 } });
    assert.equal(await page.getAttribute('html', 'lang'), lang);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
    assert.equal(await page.evaluate(() => innerWidth), width);
    for (const id of STEP_IDS) {
      await showStep(page, id);
      // The figures fit themselves to their box a frame after it is shown.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const what = `step ${id}, ${lang}, ${theme}, ${width} px`;
      assert.deepEqual(await axeViolations(page, id === STEP_IDS[0] ? null : `#${id}`), [], what);
      assert.deepEqual(await svgTextContrast(page, `#${id}`), [], `SVG text contrast, ${what}`);
      // Every box that scrolls sideways (and holds nothing focusable) takes focus, so the arrow
      // keys reach what it hides (kit/scrollers.js).
      const unreachable = await page.evaluate((step) => [...document.querySelectorAll(`#${step} div, #${step} figure`)]
        .filter((el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1
          && !el.querySelector('a[href], button, input, select, textarea, [tabindex]') && el.tabIndex < 0)
        .map((el) => el.className || el.tagName), id);
      assert.deepEqual(unreachable, [], `${what}: boxes that scroll sideways without taking focus`);
      scrollers += await page.locator(`#${id} [data-scroll-focus=true][tabindex="0"]`).count();
      assert.deepEqual(page.errors, [], what);
    }
    await page.close();
    // Since the learner's path, no formula or table needs to scroll at 375 px; the count says
    // whether the focus check above met any box (touch.test.js meets them at 320 px).
    if (width < 800) t.diagnostic(`${scrollers} sideways-scrolling boxes at ${width} px, each focusable`);
  });
}

test('axe finds no violation on a phone with every Go deeper fold, the menu and the step list open, nor SVG text under 4.5:1 in the folds (id, 375 px)', async () => {
  // What the walks above check closed: each fold's figures and tables, the phone's menu and its
  // titled step lists. Indonesian, the longest language on the six steps of the idea.
  const page = await openStep(b, STEP_IDS[0], 'lang=id', { whole: true, viewport: { width: 375, height: 800 } });
  await page.click('#menu-button');
  await page.click('#step-nav .nav-toggle');
  assert.equal(await page.isVisible('#lang-select'), true);
  assert.equal(await page.isVisible('#step-nav .step-link'), true);
  assert.deepEqual(await axeViolations(page, '.masthead'), [], 'masthead, menu open');
  assert.deepEqual(await axeViolations(page, '#step-nav'), [], 'step lists open');
  let folds = 0;
  for (const id of STEP_IDS) {
    await showStep(page, id);
    const fold = page.locator(`#${id} details.deeper`);
    if (!(await fold.count())) continue;
    folds++;
    if (!(await fold.evaluate((d) => d.open))) await fold.locator('summary').click();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.deepEqual(await axeViolations(page, `#${id}`), [], `step ${id}, fold open`);
    assert.deepEqual(await svgTextContrast(page, `#${id} .deeper-body`), [], `SVG text contrast in the fold, step ${id}`);
    assert.deepEqual(page.errors, [], id);
  }
  assert.ok(!WHOLE_WALK || folds >= 6, `${folds} folds checked`);
  await page.close();
});

for (const theme of ['light', 'dark']) {
  test(`axe finds no violation in the text after the steps, FAQ open (${theme} theme)`, async () => {
    const page = await openStep(b, STEP_IDS[0], `theme=${theme}`);
    for (const summary of await page.locator('#faq summary').all()) await summary.click();
    assert.equal(await page.locator('#faq details[open]').count(), FAQ_COUNT);
    assert.deepEqual(await axeViolations(page, '#content'), [], theme);
    assert.deepEqual(await axeViolations(page, '.masthead'), [], `header, ${theme}`);
    await page.close();
  });
}

test('the dark palette follows the system when no theme is chosen', async () => {
  const page = await b.newPage();
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`${b.url}?step=${STEP_IDS[0]}`);
  await page.waitForSelector('body[data-ready=true]');
  const colours = () => page.evaluate(() => ({
    attr: document.documentElement.dataset.theme ?? null,
    card: getComputedStyle(document.querySelector('.step')).backgroundColor,
    ink: getComputedStyle(document.body).color,
  }));
  const dark = await colours();
  assert.equal(dark.attr, null);
  assert.equal(dark.card, 'rgb(29, 33, 41)');
  await page.emulateMedia({ colorScheme: 'light' });
  assert.equal((await colours()).card, 'rgb(255, 255, 255)');
  await page.close();
});

// Keyboard ------------------------------------------------------------------------------------

/** The elements of `root` a Tab should reach, in DOM order (one per radio group). */
function expectedStops(rootSel) {
  const root = document.querySelector(rootSel);
  const all = [...root.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')]
    .filter((el) => el.tabIndex >= 0 && !el.disabled && !el.closest('[hidden], [inert]'))
    // Inside a closed Go deeper fold only its summary takes focus.
    .filter((el) => { const fold = el.closest('details:not([open])'); return !fold || el.parentElement === fold && el.tagName === 'SUMMARY'; })
    .filter((el) => el.checkVisibility({ visibilityProperty: true }) || (el.type === 'radio' && el.closest('.choice')));
  return all.filter((el) => {
    if (el.type !== 'radio') return true;
    const group = all.filter((r) => r.type === 'radio' && r.name === el.name);
    return el.checked || (!group.some((r) => r.checked) && group[0] === el);
  });
}

test('Tab walks every control and figure of every step in reading order, each with a visible focus ring', async () => {
  const page = await openStep(b, STEP_IDS[0]);  // one page, moved from step to step by its list
  for (const id of STEP_IDS) {
    await showStep(page, id);
    const sel = `#${id}`;
    // Mark each expected stop with its index, in the page (the finder runs there).
    const count = await page.evaluate(`(${expectedStops})(${JSON.stringify(sel)}).map((el, i) => { el.dataset.stop = String(i); return i; }).length`);
    assert.ok(count >= 3, `step ${id} has ${count} tab stops`);
    assert.equal(await page.locator('[tabindex]:not([tabindex="0"]):not([tabindex="-1"])').count(), 0, 'no positive tabindex');

    await page.focus(`${sel} h2`);
    const seen = [];
    for (let n = 0; n < count + 5; n++) {
      await page.keyboard.press('Tab');
      const at = await page.evaluate((s) => {
        const el = document.activeElement;
        if (!el || !el.closest(s)) return null;
        // The ring: on the element, or (a visually hidden radio) on its label.
        const tiny = el.getBoundingClientRect().width <= 2;
        const ringOn = tiny ? document.querySelector(`label[for="${el.id}"]`) : el;
        const cs = getComputedStyle(ringOn);
        return {
          stop: el.dataset.stop ?? null,
          top: ringOn.getBoundingClientRect().top + scrollY,
          what: `${el.tagName.toLowerCase()}${el.name ? `[name=${el.name}]` : ''}.${el.className?.baseVal ?? el.className}`,
          outline: cs.outlineStyle, width: parseFloat(cs.outlineWidth), visible: ringOn.checkVisibility(),
        };
      }, sel);
      if (!at) break;
      seen.push(at);
      assert.ok(at.outline !== 'none' && at.width >= 2 && at.visible, `step ${id}: ${at.what} shows no focus ring (${at.outline} ${at.width}px)`);
    }
    assert.deepEqual(seen.map((s) => s.stop), Array.from({ length: count }, (_, i) => String(i)),
      `step ${id}: tab order ${seen.map((s) => s.what).join(' → ')}`);
    // Reading order on screen too: focus never jumps back up the page (side-by-side figures may
    // sit a few pixels apart).
    seen.forEach((s, i) => {
      if (i > 0) assert.ok(s.top >= seen[i - 1].top - 40, `step ${id}: ${s.what} sits above ${seen[i - 1].what}`);
    });
  }
  await page.close();
});

test('every slider, choice and toggle of every step works from the keyboard', async () => {
  const page = await openStep(b, STEP_IDS[0]);
  for (const id of STEP_IDS) {
    await showStep(page, id);
    // The controls on screen: not in a closed Go deeper fold, and not one the step hides for
    // the current state (attention's head slider shows only for ALiBi).
    const controls = await page.$$eval(`#${id} .controls input`, (els) => els.filter((el) => !el.closest('details:not([open]), [hidden]'))
      .map((el) => ({ type: el.type, name: el.name, id: el.id, checked: el.checked })));
    for (const c of controls) {
      if (c.type === 'radio' && !c.checked) continue;  // one tab stop per group: the checked one
      const input = page.locator(`#${c.id}`);
      await input.focus();
      const before = await pageUrl(page);
      if (c.type === 'range') {
        const [value, max] = [Number(await input.inputValue()), Number(await input.getAttribute('max'))];
        await page.keyboard.press(value < max ? 'ArrowRight' : 'ArrowLeft');
        assert.notEqual(Number(await input.inputValue()), value, `${id} ${c.name}`);
      } else if (c.type === 'radio') {
        await page.keyboard.press('ArrowRight');
        assert.notEqual(await page.evaluate((n) => document.activeElement.name === n && document.activeElement.id, c.name), c.id);
        assert.ok(await page.evaluate(() => document.activeElement.checked));
      } else if (c.type === 'checkbox') {
        await page.keyboard.press('Space');
        assert.equal(await input.isChecked(), !c.checked, `${id} ${c.name}`);
      }
      assert.notEqual(await pageUrl(page), before, `${id} ${c.name}: the state (and URL) changed`);
    }
  }
  await page.close();
});

test('the header language and theme switches and the step navigation take focus with a visible ring', async () => {
  const page = await openStep(b, STEP_IDS[0]);
  await page.focus('body');
  const stops = [];
  for (let n = 0; n < 4 + STEP_IDS.length; n++) {
    await page.keyboard.press('Tab');
    stops.push(await page.evaluate(() => {
      const el = document.activeElement;
      const cs = getComputedStyle(el);
      const text = el.tagName === 'SELECT' ? `select ${el.name}` : el.textContent.trim();
      return { text, ring: cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2 };
    }));
  }
  assert.deepEqual(stops.slice(0, 4).map((s) => s.text), ['select lang', 'Light', 'Dark', 'System']);
  assert.ok(stops.every((s) => s.ring), JSON.stringify(stops));
  await page.close();
});

// Figures -------------------------------------------------------------------------------------

test('every figure has a text alternative: a labelled image or application, a labelled table', async () => {
  const page = await openStep(b, STEP_IDS[0], '', { whole: true });
  for (const id of STEP_IDS) {
    await showStep(page, id);
    const missing = await page.$$eval(`#${id} svg, #${id} canvas, #${id} table`, (els) => els
      .filter((el) => !el.closest('[aria-hidden=true]') && !el.parentElement.closest('svg'))
      .filter((el) => {
        const name = el.getAttribute('aria-label') ?? el.querySelector(':scope > caption')?.textContent ?? '';
        const role = el.getAttribute('role');
        const okRole = el.tagName === 'TABLE' || role === 'img' || role === 'application';
        return !okRole || name.trim().length < 12;
      })
      .map((el) => `${el.tagName} ${el.getAttribute('class')} role=${el.getAttribute('role')} "${el.getAttribute('aria-label')}"`));
    assert.deepEqual(missing, [], `step ${id}`);
  }
  await page.close();
});

test('arrow keys on the heatmap announce position, dimension and value politely', async () => {
  const page = await openStep(b, 'sinusoidal', 'pos=10&dim=4');
  const canvas = page.locator('#sinusoidal canvas.heatmap');
  assert.equal(await canvas.getAttribute('role'), 'application');
  const describedBy = await canvas.getAttribute('aria-describedby');
  assert.match(await page.textContent(`#${describedBy}`), /arrow keys/);
  await canvas.focus();
  const live = page.locator('#sinusoidal .hover-readout');
  assert.equal(await live.getAttribute('aria-live'), 'polite');
  await page.keyboard.press('ArrowDown');
  assert.match(await live.textContent(), /^position 11, dimension 4: -?\d\.\d{4}$/);
  await page.keyboard.press('End');
  assert.match(await live.textContent(), /^position 11, dimension 19: /);
  await page.keyboard.press('Home');
  assert.match(await live.textContent(), /^position 11, dimension 0: /);
  assert.equal(await page.inputValue('#sinusoidal input[name=dim]'), '0');
  await page.close();
});

test('every line plot is focusable; Left/Right, Home/End walk a drawn cursor over its points and announce them', async () => {
  let plots = 0;
  const page = await openStep(b, STEP_IDS[0]);
  for (const id of STEP_IDS) {
    await showStep(page, id);
    await openFold(page, id);  // a plot in the Go deeper fold is walked too
    const count = await page.locator(`#${id} svg.lineplot:not(.logplot)`).count();
    for (let k = 0; k < count; k++) {
      plots++;
      const svg = page.locator(`#${id} svg.lineplot:not(.logplot)`).nth(k);
      assert.equal(await svg.getAttribute('tabindex'), '0');
      assert.equal(await svg.getAttribute('role'), 'application');
      assert.match(await page.textContent(`#${await svg.getAttribute('aria-describedby')}`), /arrow keys/);
      // The titles: children of the svg, unlike the hidden texts kit/textfit.js reads fonts from.
      const [xLabel, yLabel] = await svg.locator(':scope > text.axis-label').allTextContents();
      const announcer = svg.locator('xpath=..').locator('.plot-announcer');
      assert.equal(await announcer.getAttribute('aria-live'), 'polite');
      await svg.focus();
      // The cursor's series is the one with points drawn: the ring lands on its dots.
      const ring = () => svg.evaluate((el) => {
        const c = el.querySelector('.plot-cursor circle.cursor-ring');
        return c && [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))];
      });
      const dots = (await svg.evaluate(plotDots, 'a')).map((d) => [d.cx, d.cy]);
      assert.ok(dots.length > 1, `${id}: the cursor series has points`);
      assert.equal(await ring(), null, 'no cursor before a key');
      const onDot = async (k, what) => { const r = await ring(); assert.ok(samePoint(r, dots.at(k)), `${id}: ${what}: ring ${r}, dot ${dots.at(k)}`); };
      await page.keyboard.press('Home');
      await onDot(0, 'Home');
      const first = await announcer.textContent();
      assert.ok(first.startsWith(`${xLabel}: `) && first.includes(`; ${yLabel}: `), `${id}: "${first}"`);
      await page.keyboard.press('ArrowRight');
      await onDot(1, 'ArrowRight');
      assert.notEqual(await announcer.textContent(), first);
      await page.keyboard.press('End');
      await onDot(-1, 'End');
      await page.keyboard.press('ArrowRight');
      await onDot(-1, 'stops at the last point');
      await page.keyboard.press('ArrowLeft');
      await onDot(-2, 'ArrowLeft');
      await page.keyboard.press('Tab');
      assert.equal(await ring(), null, 'the cursor leaves with the focus');
    }
    assert.deepEqual(page.errors, [], id);
  }
  await page.close();
  assert.ok(!WHOLE_WALK || plots >= 4, `${plots} line plots`);
});

test('a control change speaks through one live region only: the readouts row', async () => {
  const page = await openStep(b, STEP_IDS[0]);
  await page.evaluate(() => {
    const live = (node) => {
      for (let el = node.nodeType === 1 ? node : node.parentElement; el; el = el.parentElement) {
        if (el.closest('[aria-hidden=true]')) return null;
        const mode = el.getAttribute('aria-live');
        if (mode === 'off') return null;
        if (mode || ['status', 'alert', 'log'].includes(el.getAttribute('role')) || el.tagName === 'OUTPUT') return el;
      }
      return null;
    };
    window.__spoken = new Set();
    new MutationObserver((records) => {
      for (const r of records) {
        const region = live(r.target);
        if (region) window.__spoken.add(region);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
    window.__spokenInfo = () => [...window.__spoken].map((el) => el.className || el.tagName);
  });
  for (const id of STEP_IDS) {
    await showStep(page, id);
    // Moving to the step is not the change under test: what it spoke is forgotten (the
    // observer's records of it are delivered by the frame awaited here).
    await page.evaluate(() => new Promise(requestAnimationFrame));
    await page.evaluate(() => { window.__spoken.clear(); });
    const control = page.locator(`#${id} .controls :is(input[type=range], input[type=checkbox], input[type=radio]:checked, select)`).first();
    await control.focus();
    await page.keyboard.press({ range: 'ArrowRight', radio: 'ArrowRight', checkbox: 'Space', 'select-one': 'ArrowDown' }[await control.evaluate((el) => el.type)]);
    await page.evaluate(() => new Promise(requestAnimationFrame));
    assert.deepEqual(await page.evaluate(() => window.__spokenInfo()), ['readouts'], `step ${id}`);
    assert.equal(await page.locator(`#${id} .readouts[aria-live=polite]`).count(), 1);
  }
  await page.close();
});

// Colour and motion ---------------------------------------------------------------------------

test('forced colours (high contrast): controls and readouts stay visible, states stay distinct, no errors', async () => {
  const page = await b.newPage();
  await page.emulateMedia({ forcedColors: 'active' });
  await page.goto(`${b.url}?step=${STEP_IDS[0]}`);
  await page.waitForSelector('body[data-ready=true]');
  assert.ok(await page.evaluate(() => matchMedia('(forced-colors: active)').matches));
  for (const id of STEP_IDS) {
    await showStep(page, id);
    await openFold(page, id);  // the readouts in the Go deeper fold are checked too
    // Every other disclosure of the step too (the your-model step's paste box): its controls are checked open.
    await page.$$eval(`#${id} .controls details:not([open])`, (ds) => ds.forEach((d) => { d.open = true; }));
    const report = await page.$$eval(`#${id} .controls input, #${id} .controls button, #${id} .readout, #${id} [data-readout]`, (els) => els.filter((el) => !el.closest('[hidden]')).map((el) => {
      const target = el.type === 'radio' ? document.querySelector(`label[for="${el.id}"]`) : el;
      const box = target.getBoundingClientRect();
      let bg = 'rgba(0, 0, 0, 0)';
      for (let p = target; p && bg === 'rgba(0, 0, 0, 0)'; p = p.parentElement) bg = getComputedStyle(p).backgroundColor;
      return { what: `${el.tagName}.${el.className}[${el.name ?? ''}]`, shown: target.checkVisibility() && box.width > 0 && box.height > 0,
        color: getComputedStyle(target).color, bg, checked: el.checked ?? null, text: target.textContent.trim() };
    }));
    for (const r of report) {
      assert.ok(r.shown, `${id}: ${r.what} not visible`);
      if (r.text) assert.notEqual(r.color, r.bg, `${id}: ${r.what} text colour equals its background`);
    }
    // Radio-like choices: the checked one looks different from the others.
    const choice = await page.$$eval(`#${id} .choice-item label`, (labels) => labels.map((l) => `${getComputedStyle(l).backgroundColor}/${getComputedStyle(l).color}`));
    if (choice.length) assert.ok(new Set(choice).size >= 2, `${id}: the checked choice stands out (${choice})`);
    assert.deepEqual(page.errors, [], id);
  }
  await page.close();
});

test('with prefers-reduced-motion nothing transitions or animates', async () => {
  const durations = async (page) => page.evaluate(() => [...document.querySelectorAll('*')].flatMap((el) => {
    const cs = getComputedStyle(el);
    const moving = cs.transitionDuration.split(',').some((d) => parseFloat(d) > 0) || cs.animationName !== 'none';
    return moving ? [`${el.tagName.toLowerCase()}.${el.className?.baseVal ?? el.className}`] : [];
  }));
  const normal = await openStep(b, 'order');
  const animated = await durations(normal);
  assert.ok(animated.length > 0, 'some controls transition normally');
  await normal.close();
  const page = await b.newPage();
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(`${b.url}?step=${STEP_IDS[0]}`);
  await page.waitForSelector('body[data-ready=true]');
  for (const id of STEP_IDS) {
    await showStep(page, id);
    assert.deepEqual(await durations(page), [], id);
    const button = await page.$eval('.step-link', (el) => getComputedStyle(el).transitionDuration);
    assert.equal(button, '0s');
  }
  await page.close();
});

test('the theme switch sets light, dark or the system palette, remembered across visits; ?theme= overrides', async () => {
  const page = await openStep(b, STEP_IDS[0]);
  await page.evaluate(() => localStorage.clear());
  const state = () => page.evaluate(() => ({
    attr: document.documentElement.dataset.theme ?? null,
    pressed: [...document.querySelectorAll('.theme-option')].filter((x) => x.getAttribute('aria-pressed') === 'true').map((x) => x.dataset.themeOption),
    stored: localStorage.getItem('posenc-theme'),
    card: getComputedStyle(document.querySelector('.step')).backgroundColor,
  }));
  await page.emulateMedia({ colorScheme: 'light' });
  assert.deepEqual(await state(), { attr: null, pressed: ['system'], stored: null, card: 'rgb(255, 255, 255)' });
  await page.getByRole('button', { name: 'Dark' }).click();
  assert.deepEqual(await state(), { attr: 'dark', pressed: ['dark'], stored: 'dark', card: 'rgb(29, 33, 41)' });
  await page.reload();
  await page.waitForSelector('body[data-ready=true]');
  assert.equal((await state()).attr, 'dark', 'remembered');
  // The URL wins for one load, without being remembered.
  await page.goto(`${b.url}?step=${STEP_IDS[1]}&theme=light`);
  await page.waitForSelector('body[data-ready=true]');
  assert.deepEqual(await state(), { attr: 'light', pressed: ['light'], stored: 'dark', card: 'rgb(255, 255, 255)' });
  assert.equal(new URL(await pageUrl(page)).searchParams.get('theme'), 'light', 'kept while the step writes its state');
  await page.getByRole('button', { name: 'System' }).click();
  assert.equal((await state()).stored, null);
  assert.equal(new URL(await pageUrl(page)).searchParams.get('theme'), null);
  await page.emulateMedia({ colorScheme: 'dark' });
  assert.deepEqual(await state(), { attr: null, pressed: ['system'], stored: null, card: 'rgb(29, 33, 41)' });
  assert.deepEqual(page.errors, []);
  await page.close();
});
