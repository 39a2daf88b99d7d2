// Printing in Chromium: beforeprint builds every step (only the opened one exists before), the
// print styles show all of them with their figures, every step's Go deeper fold and the FAQ open,
// and navigation, buttons and embed panels go; the PDF runs over several pages.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { startBrowser } from './browser.js';
import { heatmapHolds, openStep } from './steps.js';
import { STEP_IDS } from './step-ids.js';
import { FAQ_COUNT, REFERENCE_COUNT } from './content-counts.js';

let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

/**
 * What print shows of every step: visible?, its title, its figures drawn (with a size), and for
 * a heatmap whether its canvas holds its map (steps.js heatmapHolds, put in the page first).
 */
function printedSteps(ids) {
  return ids.map((id) => {
    const section = document.getElementById(id);
    const figures = [...section.querySelectorAll('svg.lineplot, svg.bars, svg.logplot, svg.strips, svg.vectorplane, svg.rotation, canvas.heatmap, table')]
      .map((el) => {
        const box = el.getBoundingClientRect();
        return { tag: el.tagName, drawn: box.width > 20 && box.height > 20 && el.checkVisibility(), painted: el.tagName === 'CANVAS' ? window.heatmapHolds(el) : null };
      });
    return { id, visible: section.checkVisibility(), title: section.querySelector('h2')?.textContent.trim() ?? '', figures };
  });
}

for (const theme of ['light', 'dark']) {
  test(`print media after beforeprint shows every step with its figures, the FAQ and references, and no navigation or buttons (${theme})`, async () => {
    const page = await openStep(b, STEP_IDS.at(-1), `theme=${theme}`, { whole: true });
    // Before printing only the opened step is built.
    assert.deepEqual(await page.$$eval('main > section.step', (els) => els.filter((e) => e.childElementCount).map((e) => e.id)), [STEP_IDS.at(-1)]);
    await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
    await page.emulateMedia({ media: 'print' });
    // The train step's maps come from its reference run, which it loads once it is built (here,
    // at beforeprint): wait until each holds a grid. (A print made before that shows them blank;
    // the page loads that run, 0.8 MB, only for a reader who opens or prints the step.)
    await page.waitForFunction(() => [...document.querySelectorAll('#train canvas.heatmap')].every((c) => c.dataset.grid));
    await page.evaluate(`window.heatmapHolds = ${heatmapHolds}`);
    const steps = await page.evaluate(printedSteps, STEP_IDS);
    for (const s of steps) {
      assert.ok(s.visible, `${s.id} is printed`);
      assert.ok(s.title.length > 3, `${s.id} has its title`);
      assert.ok(s.figures.length > 0, `${s.id} has figures`);
      for (const f of s.figures) {
        assert.ok(f.drawn, `${s.id}: a ${f.tag} is drawn`);
        if (f.painted !== null) assert.ok(f.painted, `${s.id}: the heatmap holds its map`);
      }
    }
    const hidden = await page.evaluate(() => ({
      nav: document.getElementById('step-nav').checkVisibility(),
      buttons: [...document.querySelectorAll('button')].filter((x) => x.checkVisibility()).map((x) => x.textContent),
      embed: [...document.querySelectorAll('.embed-panel, .figure-tools, .downloads, .theme-switch')].some((x) => x.checkVisibility()),
      faqOpen: document.querySelectorAll('#faq details[open]').length,
      // Every step's Go deeper fold prints open (kit/step.js; a step with nothing in it has none).
      foldsClosed: [...document.querySelectorAll('main details.deeper')].filter((d) => !d.open).map((d) => d.closest('section').id),
      faqText: [...document.querySelectorAll('#faq details p')].every((p) => p.checkVisibility()),
      references: [...document.querySelectorAll('#references li')].filter((li) => li.checkVisibility()).length,
      // Print is always on the light palette: dark text on white paper.
      ink: getComputedStyle(document.body).color,
    }));
    assert.deepEqual(hidden, { nav: false, buttons: [], embed: false, faqOpen: FAQ_COUNT, foldsClosed: [], faqText: true, references: REFERENCE_COUNT, ink: 'rgb(28, 34, 48)' });
    assert.ok(await page.locator('main details.deeper').count() >= 6, 'the six steps of the idea have folds');
    // The steps printed in order, one after the other, none overlapping.
    const tops = await page.$$eval('main > section.step', (els) => els.map((e) => e.getBoundingClientRect().top));
    assert.deepEqual([...tops].sort((x, y) => x - y), tops);

    // Back on screen after printing: one step again, FAQ closed as it was.
    await page.emulateMedia({ media: 'screen' });
    await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
    assert.deepEqual(await page.$$eval('main > section.step', (els) => els.filter((e) => e.checkVisibility()).map((e) => e.id)), [STEP_IDS.at(-1)]);
    assert.equal(await page.locator('#faq details[open]').count(), 0);
    assert.equal(await page.locator('main details.deeper[open]').count(), 0, 'the folds close again');
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('the printed PDF holds every step on pages of its own, and the references', async () => {
  const page = await openStep(b, STEP_IDS[0], '', { whole: true });
  await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
  await page.emulateMedia({ media: 'print' });
  const pdf = await page.pdf({ format: 'A4', printBackground: true });
  const dir = new URL('../out/', import.meta.url);
  await mkdir(dir, { recursive: true });
  await writeFile(new URL('print.pdf', dir), pdf);  // for a person to look at
  const text = pdf.toString('latin1');
  const pages = (text.match(/\/Type\s*\/Page\b(?!s)/g) ?? []).length;
  assert.ok(pages >= STEP_IDS.length + 1, `${pages} pages for ${STEP_IDS.length} steps and the text after them`);
  assert.deepEqual(page.errors, []);
  await page.close();
});
