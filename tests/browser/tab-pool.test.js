// The browser tests' tab pool (tab-pool.js): a closed page comes back as the next page, without
// the listeners, init scripts, media emulation, viewport or errors of the test that used it; the
// page handed out before comes to the front when one closes; a page carrying what the pool does
// not undo closes for real.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startBrowser } from './browser.js';

let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

// A small page: what is tested is the tab, not the explainer.
const PLAIN = 'web/i18n.js';

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
  await first.close();  // a second close changes nothing

  const second = await b.newPage();
  assert.equal(second, first, 'the same tab');
  assert.equal(second.url(), 'about:blank');
  assert.deepEqual(second.errors, []);
  await second.goto(`${b.url}${PLAIN}`);
  assert.equal(await second.evaluate(() => window.name), 'tab-1', 'the same browsing context: window.name kept across same-site loads');
  assert.equal(await second.evaluate(() => window.fromInit), undefined, 'the init script is gone');
  assert.deepEqual(await second.evaluate(() => [matchMedia('(prefers-color-scheme: dark)').matches, matchMedia('(prefers-reduced-motion: reduce)').matches]), [false, false]);
  assert.equal(await second.evaluate(() => innerWidth), 1280);
  const heardBefore = heard;
  await second.evaluate(() => console.error('from the second test'));
  assert.equal(heard, heardBefore, "the first test's listener is gone");
  assert.deepEqual(second.errors.filter((e) => e.startsWith('from')), ['from the second test'], 'the second test records its own errors only');
  await second.close();

  const third = await b.newPage({ viewport: { width: 320, height: 640 } });
  assert.equal(third, first);
  await third.goto(`${b.url}${PLAIN}`);
  assert.equal(await third.evaluate(() => innerWidth), 320, 'the viewport asked for');
  await third.close();
});

// A page left behind a newer tab, even one back on about:blank, was slow to update: showing a
// step there took 1–2 s instead of 0.2 s. The pool brings the page before to the front.
test('when a page closes, the page handed out before it is brought to the front', async () => {
  const a = await b.newPage();
  await a.goto(`${b.url}${PLAIN}`);
  let fronted = 0;
  const bringToFront = a.bringToFront.bind(a);
  a.bringToFront = async () => { fronted++; return bringToFront(); };
  const other = await b.newPage();
  await other.goto(`${b.url}${PLAIN}`);
  assert.equal(fronted, 0);
  await other.close();
  assert.equal(fronted, 1);
  a.bringToFront = bringToFront;
  await a.close();
});

test('a page with a route, an exposed function, changed timeouts, a CDP session or a key held down really closes', async () => {
  const carriers = {
    route: (page) => page.route('**/nothing', (r) => r.abort()),
    exposeFunction: (page) => page.exposeFunction('fromNode', () => 1),
    setDefaultTimeout: (page) => page.setDefaultTimeout(5000),
    cdp: (page) => b.context.newCDPSession(page),
    heldKey: (page) => page.keyboard.down('Shift'),
  };
  for (const [name, carry] of Object.entries(carriers)) {
    const page = await b.newPage();
    await carry(page);
    await page.close();
    assert.equal(page.isClosed(), true, name);
    const next = await b.newPage();
    assert.notEqual(next, page, name);
    await next.close();
  }
});
