// A stored theme is on the page before its first paint: with the system light and "dark"
// remembered, the explainer and the Lab, from source, from dist/ and as the single file, paint
// their first frame dark. The blocking classic script in <head> (web/theme-early.js) sets the
// attribute while the page is still being parsed, before any module runs, under the strict CSP
// (from 'self', or inline with its hash in the single file).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DIST, SOURCE, startBrowser } from './browser.js';

const SINGLE = new URL('../../dist/positional-encoding.html', import.meta.url).href;
let source;
let dist;
before(async () => {
  source = await startBrowser({ root: SOURCE });
  dist = await startBrowser({ root: DIST, prefix: '/pe/' });
});
after(async () => {
  await source?.close();
  await dist?.close();
});

/**
 * Opens `url` with the system light and `stored` remembered; returns the theme attribute when
 * the parser reached <body> (no module has run then: they are deferred), the page colour at the
 * first animation frame (before the first paint) and once loaded, and any CSP violation.
 */
async function firstFrame(b, url, stored) {
  const page = await b.newPage();
  await page.emulateMedia({ colorScheme: 'light' });
  await page.addInitScript((theme) => {
    try {
      if (theme) localStorage.setItem('posenc-theme', theme);
      else localStorage.removeItem('posenc-theme');
    } catch {
      // an opaque origin has no storage; the test would then fail on the colours, visibly
    }
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    // The page's colour: the root's background, or the body's where the root has none (the Lab).
    window.__colour = () => {
      const root = getComputedStyle(document.documentElement).backgroundColor;
      return root !== 'rgba(0, 0, 0, 0)' || !document.body ? root : getComputedStyle(document.body).backgroundColor;
    };
    new MutationObserver((_, observer) => {
      if (!document.body) return;
      window.__atBody = document.documentElement.getAttribute('data-theme');
      window.__modulesRan = Boolean(document.body.dataset.ready || document.querySelector('.theme-switch, .lab-switches button'));
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
    requestAnimationFrame(() => { window.__first = window.__colour(); });
  }, stored);
  await page.goto(url);
  await page.waitForFunction(() => window.__first !== undefined);
  await page.waitForLoadState('load');
  const result = await page.evaluate(() => ({
    atBody: window.__atBody, modulesRan: window.__modulesRan, first: window.__first, loaded: window.__colour(),
    attr: document.documentElement.getAttribute('data-theme'), violations: window.__violations,
  }));
  await page.close();
  return result;
}

const pages = () => [
  ['explainer from source', source, `${source.url}?step=rope`],
  ['Lab from source', source, `${source.url}web/lab.html`],
  ['explainer from dist/', dist, `${dist.url}?step=rope`],
  ['Lab from dist/', dist, `${dist.url}lab.html`],
  ['single file', source, `${SINGLE}?step=rope`],
];

test('a stored dark theme is on the page before the first paint, against a light system', async () => {
  for (const [name, b, url] of pages()) {
    const dark = await firstFrame(b, url, 'dark');
    const light = await firstFrame(b, url, null);
    assert.equal(dark.atBody, 'dark', `${name}: the attribute is set while <head> is parsed`);
    assert.equal(dark.modulesRan, false, `${name}: before any module ran`);
    assert.equal(dark.attr, 'dark', `${name}: and it stays`);
    assert.notEqual(light.first, dark.first, `${name}: the first frame differs from the system's (light) palette`);
    assert.equal(dark.first, dark.loaded, `${name}: the first frame already has the colour the loaded page has`);
    assert.equal(light.atBody, null, `${name}: nothing stored, the system's palette`);
    assert.equal(light.first, light.loaded, name);
    assert.deepEqual([...dark.violations, ...light.violations], [], `${name}: no CSP violation`);
  }
});

test('?theme= overrides the stored theme from the first frame too', async () => {
  for (const [name, b, url] of pages()) {
    const sep = url.includes('?') ? '&' : '?';
    const forced = await firstFrame(b, `${url}${sep}theme=light`, 'dark');
    const stored = await firstFrame(b, url, 'light');
    assert.equal(forced.atBody, 'light', name);
    assert.equal(forced.first, stored.first, `${name}: ?theme=light paints as a stored light theme`);
    const system = await firstFrame(b, `${url}${sep}theme=system`, 'dark');
    assert.equal(system.atBody, null, `${name}: ?theme=system follows the (light) system`);
    assert.deepEqual([...forced.violations, ...stored.violations, ...system.violations], [], name);
  }
});
