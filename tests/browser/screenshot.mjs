// Takes screenshots of the page for a person to look at (not a test):
//   node tests/browser/screenshot.mjs [query] [width]  -> tests/out/screenshot-<step>-<width>.png
import { mkdir } from 'node:fs/promises';
import { startBrowser } from './browser.js';

const query = process.argv[2] ?? '';
const widths = process.argv[3] ? [Number(process.argv[3])] : [1280, 375];
const b = await startBrowser();
await mkdir(new URL('../out/', import.meta.url), { recursive: true });
try {
  for (const width of widths) {
    const page = await b.newPage({ viewport: { width, height: 900 } });
    await page.goto(`${b.url}${query}`);
    await page.waitForSelector('body[data-ready=true]', { timeout: 15000 });
    const step = new URLSearchParams(query).get('step') ?? 'page';
    const file = new URL(`../out/screenshot-${step}-${width}.png`, import.meta.url).pathname;
    await page.screenshot({ path: file, fullPage: true });
    // The visible step alone, in slices short enough to read closely.
    const section = page.locator('main > section.step:not([hidden])');
    if (await section.count()) {
      const box = await section.boundingBox();
      const slice = 1000;
      for (let i = 0, y = box.y; y < box.y + box.height; i++, y += slice) {
        const clip = { x: box.x, y, width: box.width, height: Math.min(slice, box.y + box.height - y) };
        await page.screenshot({ path: file.replace('.png', `-step${i + 1}.png`), clip, fullPage: true });
      }
    }
    console.log(file, page.errors.length ? `errors: ${page.errors.join(' | ')}` : 'no console errors');
    await page.close();
  }
} finally {
  await b.close();
}
