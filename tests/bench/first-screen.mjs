// How long a reader waits for a step's first screen, over loopback and over a phone connection
// (Chromium's network emulation: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, the
// throttling Lighthouse's mobile profile names; no CPU slowdown). dist/ as a static host serves
// it (gzip), each load in a fresh browser context, so nothing is cached. A report for
// `npm run perf`, never a test.
//
//   node tests/bench/first-screen.mjs [--steps order,rope] [--runs 3] [--network phone|loopback|both]
//
// Per step, the median over the runs of:
//   paint   first contentful paint
//   text    the opened step's title on the screen (it paints before the core is ready)
//   number  the first readout of the opened step with its value (data-value): the first number
//           a reader sees
//   ready   posenc:ready, the step built and interactive
//   KiB     bytes transferred (gzip) until the first number, and the requests made by then
//   CLS     cumulative layout shift until posenc:ready (PerformanceObserver, layout-shift
//           entries without recent input; Core Web Vitals call 0.1 or less good)
import { chromium } from 'playwright-core';
import { ARGS, CHROMIUM, serveForTests } from '../browser/browser.js';
import { ALL_STEP_IDS } from '../browser/step-ids.js';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const steps = arg('--steps', ALL_STEP_IDS.slice(0, 6).join(',')).split(',');
const runs = Number(arg('--runs', 3));
const networks = { both: ['loopback', 'phone'], loopback: ['loopback'], phone: ['phone'] }[arg('--network', 'both')];
const PHONE = { offline: false, latency: 150, downloadThroughput: (1.6e6 / 8), uploadThroughput: (750e3 / 8) };
const VIEWPORT = { width: 375, height: 700 };

// Runs in the page before its scripts: the time the opened step first shows its title and a
// number, and the layout shifts.
function watchFirstNumber() {
  const seen = () => document.querySelector('main > section.step:not([hidden]) [data-readout][data-value]');
  const titled = () => document.querySelector('main > section.step:not([hidden]) h2');
  new MutationObserver((_, observer) => {
    if (window.__firstText === undefined && titled()) window.__firstText = performance.now();
    if (!seen()) return;
    window.__firstNumber = performance.now();
    observer.disconnect();
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-value', 'hidden'] });
  window.__cls = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value;
  }).observe({ type: 'layout-shift', buffered: true });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const server = await serveForTests({ maxAge: 0 });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
try {
  for (const network of networks) {
    console.log(`\nFirst screen of each step at 375 × 700, dist/ with gzip, ${network === 'phone'
      ? 'over a phone connection (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up)' : 'over loopback'}; median of ${runs} fresh loads:`);
    console.log('| step | paint ms | text ms | first number ms | ready ms | CLS | KiB until the number | requests |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const step of steps) {
      const rows = [];
      for (let r = 0; r < runs; r++) {
        const context = await browser.newContext({ viewport: VIEWPORT });
        const page = await context.newPage();
        if (network === 'phone') {
          const cdp = await context.newCDPSession(page);
          await cdp.send('Network.enable');
          await cdp.send('Network.emulateNetworkConditions', PHONE);
        }
        await page.addInitScript(watchFirstNumber);
        await page.goto(`${server.url}?step=${step}`);
        await page.waitForFunction(() => window.__firstNumber !== undefined && performance.getEntriesByName('posenc:ready').length > 0,
          null, { timeout: 60000 });
        rows.push(await page.evaluate(() => {
          const number = window.__firstNumber;
          const early = performance.getEntriesByType('resource').filter((e) => e.responseEnd <= number);
          return {
            paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
            text: window.__firstText ?? NaN,
            cls: window.__cls,
            number,
            ready: performance.getEntriesByName('posenc:ready')[0].startTime,
            // The document's own bytes count too (it is not a resource entry).
            bytes: early.reduce((sum, e) => sum + e.transferSize, 0) + performance.getEntriesByType('navigation')[0].transferSize,
            requests: early.length + 1,
          };
        }));
        await context.close();
      }
      const m = (k) => median(rows.map((x) => x[k]));
      console.log(`| ${step} | ${m('paint').toFixed(0)} | ${m('text').toFixed(0)} | ${m('number').toFixed(0)} | ${m('ready').toFixed(0)} | ${m('cls').toFixed(3)} | ${(m('bytes') / 1024).toFixed(1)} | ${m('requests')} |`);
    }
  }
} finally {
  await browser.close();
  await server.close();
}
