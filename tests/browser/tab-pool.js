// Tabs for the browser tests, reused: a page a test closes goes back to a pool, and the next one
// a test asks for navigates that tab instead of opening another. A new tab is a new renderer
// process, whose V8 compiles the page's ~100 scripts and its wasm again: in Chromium a step's
// page loaded in a new tab took about 2.1 s of CPU over all processes, the same page loaded again
// in a tab that had shown the site 0.9 s, and opening and closing a blank tab alone 0.5 s.
//
// What a test leaves on a tab is taken off before the next test gets it: the listeners it added,
// its init scripts, its media emulation and viewport, the pointer (moved to the corner, buttons
// up), its page.errors. The tab keeps what no test here reads: its history and window.name. What
// the pool does not undo makes the tab close for real: a route, an exposed function or binding,
// extra headers, changed timeouts, a locator handler, a CDP session, a key still held down, a crash.

// A new page's media features, as the context sets them (Playwright's defaults).
const MEDIA = { media: null, colorScheme: 'light', reducedMotion: 'no-preference', forcedColors: 'none', contrast: 'no-preference' };

/**
 * @param {import('playwright-core').BrowserContext} context
 * @param {{width: number, height: number}} viewport  the context's own viewport
 * @returns {(options?: {viewport?: {width: number, height: number}}) => Promise<import('playwright-core').Page>}
 *   newPage: a page recording console errors and page errors into page.errors
 */
export function tabPool(context, viewport) {
  const spare = [];
  const inUse = [];  // the pages handed out and not closed, the latest last
  const unpoolable = new WeakSet();
  const newCDPSession = context.newCDPSession.bind(context);
  context.newCDPSession = async (target, ...rest) => {
    unpoolable.add(target.page?.() ?? target);  // a Page, or a Frame of one
    return newCDPSession(target, ...rest);
  };
  const drop = (page) => {
    const at = inUse.indexOf(page);
    if (at >= 0) inUse.splice(at, 1);
  };

  const makePoolable = (page) => {
    page.initScripts = [];
    const addInitScript = page.addInitScript.bind(page);
    page.addInitScript = async (...args) => {
      const script = await addInitScript(...args);
      page.initScripts.push(script);
      return script;
    };
    for (const name of ['route', 'routeFromHAR', 'routeWebSocket', 'exposeFunction', 'exposeBinding',
      'setExtraHTTPHeaders', 'setDefaultTimeout', 'setDefaultNavigationTimeout', 'addLocatorHandler']) {
      const original = page[name].bind(page);
      page[name] = (...args) => {
        unpoolable.add(page);
        return original(...args);
      };
    }
    const emulateMedia = page.emulateMedia.bind(page);
    page.emulateMedia = (...args) => {
      page.mediaEmulated = true;
      return emulateMedia(...args);
    };
    // Keys held down stay down across a navigation (a held Shift would change the next test's
    // clicks); such a tab is not reused.
    const held = new Set();
    const { down, up } = page.keyboard;
    page.keyboard.down = async (key) => { held.add(key); return down.call(page.keyboard, key); };
    page.keyboard.up = async (key) => { held.delete(key); return up.call(page.keyboard, key); };
    page.on('crash', () => unpoolable.add(page));
    // The listeners a page has before any test adds one (Playwright's own among them): the only
    // ones it keeps when it goes back to the pool.
    const own = new Map(page.eventNames().map((type) => [type, page.rawListeners(type)]));
    const testListeners = () => page.eventNames()
      .flatMap((type) => page.rawListeners(type).filter((l) => !own.get(type)?.includes(l)).map((l) => [type, l]));

    const close = page.close.bind(page);
    page.close = async (...args) => {
      if (spare.includes(page)) return;  // closed once already: back in the pool
      if (!inUse.includes(page) || unpoolable.has(page) || held.size || args.length || page.isClosed()) {
        await close(...args);
      } else {
        try {
          for (const script of page.initScripts.splice(0)) await script.dispose();
          // Whatever the page was doing (a training run's workers, timers) stops now, not when
          // the tab is next used.
          await page.goto('about:blank');
          await page.mouse.up();
          await page.mouse.move(0, 0);
          // off() rather than removeAllListeners(): it keeps Playwright's own listeners and
          // unsubscribes from events (requests, responses) nothing listens to any more.
          for (const [type, listener] of testListeners()) page.off(type, listener);
          spare.push(page);
        } catch {
          await close().catch(() => {});
        }
      }
      drop(page);
      // The page handed out most recently and still open comes to the front, as a browser shows
      // another tab when one closes: a page left behind a newer tab, even one back on
      // about:blank, was slow to update (showing a step there took 1–2 s instead of 0.2 s, and
      // the embed test's walk 86 s instead of 18 s).
      await inUse.at(-1)?.bringToFront().catch(() => {});
    };
  };

  return async function newPage(options = {}) {
    const size = options.viewport ?? viewport;
    let page;
    while ((page = spare.pop())) {
      if (!page.isClosed() && !unpoolable.has(page)) break;
      await page.close().catch(() => {});
    }
    if (page) {
      await page.bringToFront();
      if (page.mediaEmulated) await page.emulateMedia(MEDIA);
      page.mediaEmulated = false;
      const now = page.viewportSize();
      if (now.width !== size.width || now.height !== size.height) await page.setViewportSize(size);
    } else {
      page = await context.newPage();
      makePoolable(page);
      if (options.viewport) await page.setViewportSize(size);
    }
    page.errors = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') page.errors.push(msg.text());
    });
    page.on('pageerror', (err) => page.errors.push(String(err)));
    page.on('close', () => drop(page));
    inUse.push(page);
    return page;
  };
}
