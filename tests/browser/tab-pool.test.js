// The browser tests' tab pool (tab-pool.js): a closed page comes back as the next page, with
// nothing of the test that used it left on it; a page carrying what cannot be taken off closes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startBrowser } from './browser.js';

let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

// A small page: what is tested is the tab, not the explainer.
const PLAIN = 'web/i18n.js';
const tabId = (page) => page.evaluate(() => window.name);

test('a closed page is the next one, on a blank page, with no earlier init script, listener, media, viewport or error', async () => {
  const first = await b.newPage({ viewport: { width: 375, height: 700 } });
  await first.addInitScript(() => { window.fromInit = true; });
  await first.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
  let heard = 0;
  first.on('console', () => { heard++; });
  await first.goto(`${b.url}${PLAIN}`);
  await first.evaluate(() => { window.name = 'tab-1'; console.error('from the first test'); });
  assert.equal(await first.evaluate(() => window.fromInit), true);
  assert.ok(first.errors.includes('from the first test'), first.errors.join('; '));
  await first.close();

  const second = await b.newPage();
  assert.equal(second, first, 'the same tab');
  assert.equal(second.url(), 'about:blank');
  assert.deepEqual(second.errors, []);
  await second.goto(`${b.url}${PLAIN}`);
  assert.equal(await tabId(second), 'tab-1', 'the same browsing context: window.name kept across same-site loads');
  assert.equal(await second.evaluate(() => window.fromInit), undefined, 'the init script is gone');
  assert.deepEqual(await second.evaluate(() => [matchMedia('(prefers-color-scheme: dark)').matches, matchMedia('(prefers-reduced-motion: reduce)').matches]), [false, false]);
  assert.deepEqual(second.viewportSize(), { width: 1280, height: 900 });
  const before_ = heard;
  await second.evaluate(() => console.error('from the second test'));
  assert.equal(heard, before_, "the first test's listener is gone");
  assert.deepEqual(second.errors.filter((e) => e.startsWith('from')), ['from the second test'], 'the second test records its own errors only');
  await second.close();

  const third = await b.newPage({ viewport: { width: 320, height: 640 } });
  assert.equal(third, first);
  assert.deepEqual(third.viewportSize(), { width: 320, height: 640 }, 'the viewport asked for');
  await third.close();
});

test('a page with an exposed function or a CDP session really closes', async () => {
  for (const carry of [(page) => page.exposeFunction('fromNode', () => 1), (page) => b.context.newCDPSession(page)]) {
    const page = await b.newPage();
    await carry(page);
    await page.close();
    assert.equal(page.isClosed(), true);
    const next = await b.newPage();
    assert.notEqual(next, page);
    await next.close();
  }
});
