// The built site: dist/ served from a subpath, as on a static host, under the strict CSP;
// the single file opened from file://; the scalar fallback; a browser without WebAssembly.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { DIST, startBrowser } from './browser.js';
import { readout } from './steps.js';
import { ALL_STEP_IDS, STEP_IDS } from './step-ids.js';
import { STEP_GROUPS } from '../../web/steps/index.js';
import { FAQ_COUNT, REFERENCE_COUNT } from './content-counts.js';

const SINGLE = new URL('../../dist/positional-encoding.html', import.meta.url).href;
let b;
// Cache-Control: no-cache (the server's default, as a host set to revalidate would send): the
// browser asks again for every file on every load, so the first screen's times below keep
// counting those requests.
before(async () => { b = await startBrowser({ root: DIST, prefix: '/courses/ml/pe/', cache: false }); });
after(async () => { await b?.close(); });

// PE(3)·PE(8) for d = 16: Σ_k cos(5·10000^(-2k/16)).
const relativeDot = Array.from({ length: 8 }, (_, k) => Math.cos(5 * 10000 ** (-(2 * k) / 16))).reduce((a, c) => a + c);

async function watch(page) {
  page.violations = [];
  page.requests = [];
  page.on('request', (r) => page.requests.push(r.url()));
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
}

test('dist/ served under /courses/ml/pe/ runs every step under the strict CSP, with no foreign request', async () => {
  const page = await b.newPage();
  await watch(page);
  const res = await page.goto(`${b.url}?step=relative&i=3&j=8`);
  assert.match(res.headers()['content-security-policy'], /script-src 'self' 'wasm-unsafe-eval'/);
  await page.waitForSelector('body[data-ready=true]');
  assert.equal(await page.getAttribute('body', 'data-simd'), 'true');
  const dot = await readout(page, 'relative', 'dot');
  assert.ok(Math.abs(dot.value - relativeDot) < 1e-6);
  for (const id of STEP_IDS) await page.locator(`#step-nav [data-step=${id}]`).click();
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(page.errors, []);
  const origin = new URL(b.url).origin;
  assert.deepEqual(page.requests.filter((u) => !u.startsWith(`${origin}/courses/ml/pe/`)), []);
  await page.close();
});

test('first screen interactive: time to ready, from localhost (reported, not asserted)', async () => {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const page = await b.newPage();
    await page.goto(`${b.url}?step=sinusoidal`);
    await page.waitForSelector('body[data-ready=true]');
    times.push(await page.evaluate(() => performance.getEntriesByName('posenc:ready')[0].startTime));
    // Only the requested step was built: the others wait until they are opened.
    const built = await page.$$eval('main > section.step', (els) => els.filter((e) => e.childElementCount > 0).map((e) => e.id));
    assert.deepEqual(built, ['sinusoidal']);
    await page.close();
  }
  const dir = new URL('../out/perf/', import.meta.url);
  await mkdir(dir, { recursive: true });
  await writeFile(new URL('load.json', dir), JSON.stringify(times));
});

test('the single HTML file opens from file:// and computes the readouts with no request and no CSP violation', async () => {
  const page = await b.newPage();
  await watch(page);
  await page.goto(`${SINGLE}?step=relative&i=3&j=8`);
  await page.waitForSelector('body[data-ready=true]');  // the page's own signal, at Playwright's default bound
  const dot = await readout(page, 'relative', 'dot');
  assert.ok(Math.abs(dot.value - relativeDot) < 1e-6);
  assert.equal(dot.text, '6.14');
  for (const id of STEP_IDS) await page.locator(`#step-nav [data-step=${id}]`).click();
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.requests.filter((u) => u !== page.url() && !u.startsWith(SINGLE)), []);
  await page.close();
});

// What a reader's first screen costs over the wire: every file the page asked for before it was
// ready (the document, scripts, styles, catalogs, the core), in its gzip bytes as this server
// sends them, each step of the idea opened in a fresh context so that nothing comes from cache.
// The text after the steps and the other steps load after it, and are not counted.
const FIRST_SCREEN_BUDGET = 150 * 1024;
test(`each of the six idea steps' first screen is at most ${FIRST_SCREEN_BUDGET / 1024} KiB gzip`, async () => {
  const browser = b.context.browser();
  for (const id of ALL_STEP_IDS.slice(0, STEP_GROUPS[0].count)) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${b.url}?step=${id}`);
    await page.waitForFunction(() => performance.getEntriesByName('posenc:ready').length > 0);
    const { bytes, files, decoded } = await page.evaluate(() => {
      const ready = performance.getEntriesByName('posenc:ready')[0].startTime;
      const early = [performance.getEntriesByType('navigation')[0],
        ...performance.getEntriesByType('resource').filter((e) => e.startTime < ready)];
      return {
        bytes: early.reduce((sum, e) => sum + e.encodedBodySize, 0),
        decoded: early.reduce((sum, e) => sum + e.decodedBodySize, 0),
        files: early.length,
      };
    });
    assert.ok(bytes < decoded / 2, `${id}: the files came gzipped (${bytes} of ${decoded} bytes)`);
    assert.ok(files > 10 && bytes <= FIRST_SCREEN_BUDGET, `${id}: ${files} files, ${(bytes / 1024).toFixed(1)} KiB gzip before it was ready`);
    await context.close();
  }
});

// Makes the engine look like one without WebAssembly SIMD: the loader's probe fails to validate.
function withoutSimd() {
  const validate = WebAssembly.validate;
  WebAssembly.validate = (bytes) => {
    const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    for (let i = 0; i + 1 < view.length; i++) if (view[i] === 0xfd) return false;  // SIMD prefix
    return validate.call(WebAssembly, bytes);
  };
}

for (const [where, url] of [['hosted', () => `${b.url}`], ['single file', () => SINGLE]]) {
  test(`without WebAssembly SIMD the scalar module loads and the readouts are right (${where})`, async () => {
    const page = await b.newPage();
    await page.addInitScript(withoutSimd);
    await page.goto(`${url()}?step=relative&i=3&j=8`);
    await page.waitForSelector('body[data-ready=true]');  // the page's own signal, at Playwright's default bound
    assert.equal(await page.getAttribute('body', 'data-simd'), 'false');
    assert.match(await page.textContent('#engine'), /scalar/);
    const dot = await readout(page, 'relative', 'dot');
    assert.ok(Math.abs(dot.value - relativeDot) < 1e-6);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('without WebAssembly the text, FAQ and references still read, with a clear notice', async () => {
  const page = await b.newPage();
  await page.addInitScript(() => { delete window.WebAssembly; });
  await page.goto(`${b.url}?step=rope`);
  await page.waitForSelector('body[data-ready=true]');  // the page's own signal, at Playwright's default bound
  assert.match(await page.textContent('#engine'), /need WebAssembly/);
  assert.ok(await page.isVisible('#rope h2'));
  assert.ok((await page.textContent('#rope')).length > 100, 'the step still explains itself');
  assert.equal(await page.locator('#rope input').count(), 0);
  assert.equal(await page.locator('#faq details').count(), FAQ_COUNT);
  assert.equal(await page.locator('#references li').count(), REFERENCE_COUNT);
  assert.deepEqual(page.errors, []);
  await page.close();
});
