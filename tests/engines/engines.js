// The two engines besides Chromium, behind one small page interface for the cross-engine suite
// (tests/engines/suite.js): Firefox (Debian's firefox-esr) driven over WebDriver BiDi by
// puppeteer-core, and WebKit, Safari's engine (Debian's webkit2gtk-driver: WebKitWebDriver
// starting MiniBrowser) driven over classic WebDriver HTTP by the few commands below.
//
// Both run as real windows on an Xvfb display this module starts: headless Firefox finds no GL
// driver for WebGL2 ("Exhausted GL driver options"), while on Xvfb it gets Mesa's llvmpipe, and
// MiniBrowser has no headless mode at all.
//
// What classic WebDriver lacks, and how this file makes up for it: it reports no console messages
// or page errors, and runs no script before the page's own. For pages served over HTTP, the
// server below puts a classic <script> from the same origin (allowed by script-src 'self') first
// in the HTML's <head>; it records errors, console.error and CSP violations, and for the scalar
// test hides WebAssembly SIMD from the engine. Firefox gets the same recorder through BiDi preload
// scripts, and its errors from BiDi's log events. A page from file:// (the single file, whose CSP
// allows only its own inline code by hash) cannot be given the recorder first in WebKit: there it is
// installed right after navigation, and page.lateRecorder says so.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveForTests, SOURCE } from '../browser/browser.js';

export const VIEWPORT = { width: 1280, height: 900 };

/**
 * Runs in the page before its own scripts: records uncaught errors, rejected promises,
 * console.error and CSP violations into window.__engine; with noSimd, makes WebAssembly.validate
 * refuse any module with the SIMD prefix (0xfd), as an engine without SIMD would (the same rule
 * as tests/browser/dist.test.js). A string, so that it can be served, preloaded or evaluated.
 */
export const RECORDER = `(function (noSimd) {
  if (window.__engine) return;
  var rec = window.__engine = { errors: [], violations: [] };
  // The message and the stack: WebKit's stack does not repeat the message.
  var describe = function (x) { return String(x) + (x && x.stack ? '\\n' + x.stack : ''); };
  window.addEventListener('error', function (e) { rec.errors.push('error: ' + (e.error ? describe(e.error) : e.message)); });
  window.addEventListener('unhandledrejection', function (e) { rec.errors.push('unhandled rejection: ' + describe(e.reason)); });
  var consoleError = console.error;
  console.error = function () {
    rec.errors.push('console.error: ' + Array.prototype.map.call(arguments, String).join(' '));
    return consoleError.apply(console, arguments);
  };
  document.addEventListener('securitypolicyviolation', function (e) { rec.violations.push(e.violatedDirective + ' ' + e.blockedURI); });
  if (noSimd) {
    var validate = WebAssembly.validate;
    WebAssembly.validate = function (bytes) {
      var view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
      for (var i = 0; i + 1 < view.length; i++) if (view[i] === 0xfd) return false;
      return validate.call(WebAssembly, bytes);
    };
  }
})`;

/** A free TCP port on 127.0.0.1 (the driver needs a number before it starts). */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Starts Xvfb on a display it picks itself (-displayfd); resolves to { display, stop }. */
async function startXvfb() {
  const proc = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1600x1200x24', '-nolisten', 'tcp'],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  const display = await new Promise((resolve, reject) => {
    let out = '';
    proc.stdio[3].on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(`:${out.trim()}`);
    });
    proc.once('error', (e) => reject(new Error(`Xvfb could not start (Debian package xvfb): ${e.message}`)));
    proc.once('exit', (code) => reject(new Error(`Xvfb exited with ${code}: ${stderr}`)));
    setTimeout(() => reject(new Error(`Xvfb gave no display within 10 s: ${stderr}`)), 10000);
  });
  return { display, stop: () => stopProcess(proc) };
}

function stopProcess(proc) {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
    proc.once('exit', () => { clearTimeout(timer); resolve(); });
    proc.kill('SIGTERM');
  });
}

/**
 * Serves `root` (default: the page from source) under `prefix` with web/serve.mjs (its MIME types
 * and strict CSP; serveForTests, which checks that dist/ is current when it is dist/) and, for WebKit,
 * a front that adds the recorder to every HTML page: under /plain/ as it is, under /nosimd/ with
 * SIMD hidden. Resolves to { url, urlWithoutSimd, close }.
 */
export async function serveSite(engine, site = {}) {
  const server = await serveForTests({ root: SOURCE, ...site });
  if (engine !== 'webkit') return { url: server.url, urlWithoutSimd: server.url, close: server.close };
  const inner = new URL(server.url);
  const front = createServer(async (req, res) => {
    const m = req.url.match(/^\/(plain|nosimd)(\/.*)$/);
    if (m && m[2] === `${inner.pathname}__engine-recorder.js`) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' });
      res.end(`${RECORDER}(${m[1] === 'nosimd'});`);
      return;
    }
    if (!m) { res.writeHead(404).end(); return; }
    try {
      const upstream = await fetch(new URL(m[2], inner), { method: req.method, redirect: 'manual' });
      const headers = Object.fromEntries(upstream.headers);
      let body = Buffer.from(await upstream.arrayBuffer());
      if (headers.location?.startsWith('/')) headers.location = `/${m[1]}${headers.location}`;
      if ((headers['content-type'] ?? '').startsWith('text/html')) {
        // First in <head>, a classic script: it runs before the page's module scripts.
        // (It lives under the site's own path, so a check for foreign requests does not see it.)
        const tag = `<script src="/${m[1]}${inner.pathname}__engine-recorder.js"></script>`;
        body = Buffer.from(body.toString('utf8').replace(/<head>/i, (h) => `${h}${tag}`));
      }
      delete headers['content-length'];
      delete headers['transfer-encoding'];
      delete headers['content-encoding'];
      res.writeHead(upstream.status, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (e) {
      res.writeHead(502).end(String(e));
    }
  });
  await new Promise((resolve) => front.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${front.address().port}`;
  return {
    url: `${origin}/plain${inner.pathname}`,
    urlWithoutSimd: `${origin}/nosimd${inner.pathname}`,
    async close() {
      front.closeAllConnections?.();
      await new Promise((r) => front.close(r));
      await server.close();
    },
  };
}

// Firefox ------------------------------------------------------------------------------------

async function startFirefox(display) {
  const { default: puppeteer } = await import('puppeteer-core');
  const executablePath = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
  if (!existsSync(executablePath)) throw new Error(`firefox: ${executablePath} is missing (Debian package firefox-esr; wasm/tools/setup.sh installs it)`);
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath,
    headless: false,  // on Xvfb: headless Firefox has no GL driver for WebGL2 (see the top of this file)
    defaultViewport: VIEWPORT,
    env: { ...process.env, DISPLAY: display, MOZ_CRASHREPORTER_DISABLE: '1' },
    extraPrefsFirefox: {
      // Nothing from outside: no update checks, no telemetry, no remote settings.
      'app.update.enabled': false,
      'network.connectivity-service.enabled': false,
      'datareporting.policy.dataSubmissionEnabled': false,
      'toolkit.telemetry.enabled': false,
      'intl.accept_languages': 'en-US',
      'intl.locale.requested': 'en-US',
      // performance.now() to 20 µs instead of 1 ms, fine enough for the update table (Chromium
      // gives 0.1 ms; WebKit's stays at 1 ms). Cross-origin isolation would also do it, but
      // readers' hosts don't send those headers, and the pages are timed as readers get them.
      'privacy.reduceTimerPrecision': false,
      // No page kept frozen in the back-forward cache as the one tab moves on.
      'browser.sessionhistory.max_total_viewers': 0,
    },
  });
  const version = await browser.version();
  // One tab, navigated from page to page, as WebKit's one window is (the suite opens one page at
  // a time, and a page's handle acts on that tab, so it is not used after close()): a new tab for
  // each page cost Firefox a content process's start and a cold compile of the page's scripts
  // each time.
  let page = null;
  let errors = [];  // the current page's
  let recorder = null;  // the script run before each document's own: { noSimd, identifier }
  return {
    version,
    async open(url, { noSimd = false } = {}) {
      if (!page) {
        page = await browser.newPage();
        page.on('console', (msg) => { if (msg.type() === 'error') errors.push(`console.error: ${msg.text()}`); });
        page.on('pageerror', (err) => errors.push(`error: ${err?.stack ?? err}`));
      }
      // The page before is left first, so that what its unloading reports is not counted
      // against this one.
      if (page.url() !== 'about:blank') await page.goto('about:blank');
      if (recorder?.noSimd !== noSimd) {
        if (recorder) await page.removeScriptToEvaluateOnNewDocument(recorder.identifier);
        recorder = null;
        recorder = { noSimd, ...(await page.evaluateOnNewDocument(`${RECORDER}(${noSimd});`)) };
      }
      const own = [];
      errors = own;
      await page.goto(url, { waitUntil: 'load' });
      return {
        lateRecorder: false,
        eval: (fn, ...args) => page.evaluate(fn, ...args),
        errors: async () => [...own],
        violations: () => page.evaluate(() => window.__engine?.violations ?? ['(no recorder)']),
        url: () => page.url(),
        screenshot: () => page.screenshot({ type: 'png' }),
        async elementScreenshot(selector) {
          const el = await page.$(selector);
          if (!el) throw new Error(`no element ${selector}`);
          return el.screenshot({ type: 'png' });
        },
        close: async () => { await page.goto('about:blank'); },
      };
    },
    close: () => browser.close(),
  };
}

// WebKit -------------------------------------------------------------------------------------

function miniBrowser() {
  const libs = readdirSync('/usr/lib').map((d) => join('/usr/lib', d, 'webkit2gtk-4.1', 'MiniBrowser'));
  return process.env.MINIBROWSER_PATH ?? libs.find((p) => existsSync(p));
}

async function startWebKit(display, { compositing }) {
  const binary = miniBrowser();
  if (!binary) throw new Error('webkit: MiniBrowser is missing (Debian package libwebkit2gtk-4.1-0, through webkit2gtk-driver; wasm/tools/setup.sh installs it)');
  const port = await freePort();
  const driver = spawn('WebKitWebDriver', [`--port=${port}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // MiniBrowser and its web process inherit the driver's environment.
    env: { ...process.env, DISPLAY: display, LANG: 'en_US.UTF-8', ...(compositing ? {} : { WEBKIT_DISABLE_COMPOSITING_MODE: '1' }) },
  });
  let log = '';
  driver.stdout.on('data', (d) => { log = (log + d).slice(-4000); });
  driver.stderr.on('data', (d) => { log = (log + d).slice(-4000); });
  const spawned = new Promise((_, reject) => driver.once('error', (e) => reject(new Error(`webkit: WebKitWebDriver could not start (Debian package webkit2gtk-driver): ${e.message}`))));
  const base = `http://127.0.0.1:${port}`;
  const call = async (method, path, body) => {
    const res = await fetch(base + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = await res.json();
    // On an 'unknown error', the driver's recent output is appended: a bare "Could not parse
    // script result" can mean a crashed or hung web process, a closed window or a result it could
    // not serialise, and the log may say which.
    if (json.value?.error) {
      const tail = json.value.error === 'unknown error' && log.trim() ? `\nWebKitWebDriver's last output:\n${log.trim()}` : '';
      throw new Error(`webkit: ${method} ${path}: ${json.value.error}: ${json.value.message}${tail}`);
    }
    return json.value;
  };
  for (let i = 0; ; i++) {
    try {
      if ((await Promise.race([call('GET', '/status'), spawned]))?.ready) break;
    } catch (e) {
      if (e.message.includes('could not start') || i > 100) throw new Error(`${e.message}\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const { sessionId, capabilities } = await call('POST', '/session', {
    capabilities: { alwaysMatch: { 'webkitgtk:browserOptions': { binary, args: ['--automation'] } } },
  });
  const s = `/session/${sessionId}`;
  await call('POST', `${s}/window/rect`, VIEWPORT);
  await call('POST', `${s}/timeouts`, { script: 60000, pageLoad: 60000 });

  /** Runs fn(...args) in the page (it may return a promise) and resolves to its JSON result. */
  async function evaluate(fn, ...args) {
    const script = `const done = arguments[arguments.length - 1];
      Promise.resolve().then(() => (${fn}).apply(null, Array.prototype.slice.call(arguments, 0, -1)))
        .then((v) => done({ ok: v === undefined ? null : v }), (e) => done({ error: String(e && e.stack || e) }));`;
    const out = await call('POST', `${s}/execute/async`, { script, args });
    if (out && 'error' in out) throw new Error(`webkit: in the page: ${out.error}`);
    return out?.ok;
  }

  return {
    version: `MiniBrowser (WebKitGTK) ${capabilities.browserVersion}`,
    async open(url) {
      // One window, navigated from page to page: the suite opens one page at a time.
      await call('POST', `${s}/url`, { url });
      const lateRecorder = !/^https?:/.test(url);
      if (lateRecorder) await evaluate(`() => { ${RECORDER}(false); }`);
      return {
        lateRecorder,
        eval: evaluate,
        errors: () => evaluate(() => window.__engine?.errors ?? ['(no recorder: the page did not run the recorder)']),
        violations: () => evaluate(() => window.__engine?.violations ?? ['(no recorder)']),
        url: () => call('GET', `${s}/url`),
        screenshot: async () => Buffer.from(await call('GET', `${s}/screenshot`), 'base64'),
        async elementScreenshot(selector) {
          const el = await call('POST', `${s}/element`, { using: 'css selector', value: selector });
          const id = Object.values(el)[0];
          return Buffer.from(await call('GET', `${s}/element/${id}/screenshot`), 'base64');
        },
        close: async () => { await call('POST', `${s}/url`, { url: 'about:blank' }); },
      };
    },
    async close() {
      await call('DELETE', s).catch(() => {});
      await stopProcess(driver);
    },
  };
}

/**
 * Starts an engine ('firefox' or 'webkit') on its own Xvfb display. Returns
 * { name, version, open(url, { noSimd }) → page, close() }; a page has eval(fn, ...args),
 * errors(), violations(), url(), screenshot(), elementScreenshot(selector), close().
 * For WebKit, open pages served by serveSite(); noSimd there means its urlWithoutSimd.
 *
 * { compositing: false } starts WebKit without accelerated compositing
 * (WEBKIT_DISABLE_COMPOSITING_MODE): it paints the changed areas with Skia on the CPU, instead
 * of painting and compositing through OpenGL, which on this GPU-less machine is Mesa's llvmpipe,
 * a software renderer on the machine's two cores. On a blank page changing one character per
 * frame, the machine's threads used 25–28 ms of CPU per frame in the default mode and 3–5 ms
 * without (four runs each, tests/quiet/frame-floor.js). startFirefox ignores the option.
 */
export async function startEngine(name, { compositing = true } = {}) {
  const xvfb = await startXvfb();
  try {
    const engine = name === 'firefox' ? await startFirefox(xvfb.display) : await startWebKit(xvfb.display, { compositing });
    return {
      name,
      version: engine.version,
      open: engine.open,
      async close() {
        await engine.close().catch(() => {});
        await xvfb.stop();
      },
    };
  } catch (e) {
    await xvfb.stop();
    throw e;
  }
}

/** Polls fn(...args) in the page until it returns something truthy; the error names what it waited for. */
export async function waitFor(page, what, fn, args = [], timeout = 30000) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await page.eval(fn, ...args);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A temporary folder for a test's files; removed by the returned function. */
export async function scratch() {
  const dir = await mkdtemp(join(tmpdir(), 'posenc-engine-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
