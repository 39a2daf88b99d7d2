// Shared set-up for the browser tests: Debian's Chromium driven by playwright-core, started
// with the flags this sandbox needs (no background network, no sandbox as root), against the
// project's own static server on 127.0.0.1.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../web/serve.mjs';
import { tabPool } from './tab-pool.js';
import { traceUpdates } from './task-trace.js';
import { writeUpdateCpu } from './steps.js';

/**
 * How long (s) the test server lets a browser reuse a file other than a page without asking
 * (web/serve.mjs maxAge): nothing it serves changes while a test runs. From source a page is about
 * 175 files; revalidating each on every later load was about half of that load's CPU, over all
 * processes (1.9 s against 0.93 s; measured on the page from source, dist/ has far fewer files).
 */
export const CACHE_SECONDS = 3600;

const VIEWPORT = { width: 1280, height: 900 };

/**
 * What the browser tests open: the site as readers get it (dist/, as `npm start` and a static host
 * serve it; npm test builds it before them), unless a test is about the page from source
 * (SOURCE: the modules in web/ as they are, which the Firefox and WebKit suites and the quiet
 * timing also open). From source a page is about 175 files: ten step test files took 199 s of
 * CPU from source and 174 s from dist/ (13 % less).
 */
export const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
export const SOURCE = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Throws if what dist/ is built from (web/, index.html, wasm/: the JS API the page imports, the
 * modules, and their sources) changed after dist/ was built, a file added or removed too (its
 * folder's time changes): a test would open the page as it was, not as the source says. Dotfiles
 * (an editor's swap files) are left out. The folders are parameters for its own test.
 */
export function assertDistCurrent({ dist = DIST, source = SOURCE } = {}) {
  let built;
  try {
    built = statSync(join(dist, 'index.html')).mtimeMs;
  } catch {
    throw new Error('dist/ is not built: run `npm run build` (npm test builds it)');
  }
  const newer = (path) => {
    const st = statSync(path);
    if (st.mtimeMs > built) return path;
    if (!st.isDirectory()) return null;
    for (const name of readdirSync(path)) {
      if (name.startsWith('.')) continue;
      const found = newer(join(path, name));
      if (found) return found;
    }
    return null;
  };
  for (const part of ['web', 'index.html', 'wasm']) {
    const found = newer(join(source, part));
    if (found) throw new Error(`dist/ is older than ${found.slice(source.length)}: run \`npm run build\` (or node web/tools/build-dist.mjs)`);
  }
}

/**
 * The project's server for a test file: `root` (default dist/, checked to be current) with the
 * cache lifetime above; `site` as web/serve.mjs takes it (prefix, or maxAge 0 for none).
 */
export async function serveForTests({ root = DIST, ...site } = {}) {
  if (root === DIST) assertDistCurrent();
  return serve({ port: 0, maxAge: CACHE_SECONDS, root, ...site });
}

/** Debian's Chromium, unless CHROMIUM_PATH names another. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/**
 * A Chromium: with POSENC_CHROMIUM_WS (npm test's shared one, chromium-server.mjs), a connection
 * to it, unless `own`; else one started here. Its close() stops a started one and only
 * disconnects from the shared one.
 */
export async function chromiumBrowser({ own = false } = {}) {
  const shared = own ? null : process.env.POSENC_CHROMIUM_WS;
  return shared ? chromium.connect(shared) : chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
}

/**
 * Starts the server and a browser context, in the shared Chromium unless timed (chromiumBrowser);
 * returns { url, context, newPage, close }.
 * @param {{root?: string, prefix?: string, timed?: boolean, cache?: boolean}} [site]  what to
 *   serve (default: dist/, DIST); timed: trace the browser so that updateTimes' measures
 *   and marked long tasks get their CPU times (task-trace.js). Only the attention and train tests
 *   ask for it, for their long tasks: tracing made frequencies.test.js cost about 40 % more CPU
 *   (54 s instead of 38 s). cache: false makes the browser ask for every file on every load, as
 *   the server's default (no-cache) does.
 */
export async function startBrowser({ timed = false, cache = true, ...site } = {}) {
  const server = await serveForTests({ ...site, ...(cache ? {} : { maxAge: 0 }) });
  // A timed browser is always one of its own: a trace records the whole browser, which the test
  // file running beside this one would otherwise share.
  const browser = await chromiumBrowser({ own: timed });
  const context = await browser.newContext({ viewport: VIEWPORT });
  let trace = null;  // the update measures' CPU times (task-trace.js), from the first page on
  const newPooledPage = tabPool(context, VIEWPORT);
  return {
    url: server.url,
    context,
    /** A page recording console errors and page errors into page.errors: a spare tab, if any (tab-pool.js). */
    async newPage(options = {}) {
      if (timed) await (trace ??= traceUpdates(context));
      return newPooledPage(options);
    },
    async close() {
      if (trace) await writeUpdateCpu(await (await trace).stop());
      await context.close();
      await browser.close();  // the shared one: only disconnects
      await server.close();
    },
  };
}
