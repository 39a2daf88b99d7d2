// Tabs for the browser tests, reused: a page a test closes goes back to a pool, cleared, and
// the next one it asks for navigates that tab instead of opening another. A new tab is a new
// renderer process, whose V8 compiles the page's ~100 scripts and its wasm again: in Chromium a
// step's page loaded in a new tab took about 2.1 s of CPU over all processes, the same page
// loaded again in a tab that had shown the site 0.9 s, and opening and closing a blank tab
// alone 0.5 s. A test still gets what a new tab gives it: no listeners, init scripts or media
// emulation of an earlier test, the viewport it asks for, and an empty page.errors; a tab that
// carries what cannot be taken off it (a route, an exposed function, a CDP session, changed
// timeouts) is closed for real.

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
  context.newCDPSession = async (page, ...rest) => {
    unpoolable.add(page);
    return newCDPSession(page, ...rest);
  };

  const track = (page) => {
    page.initScripts = [];
    const addInitScript = page.addInitScript.bind(page);
    page.addInitScript = async (...args) => {
      const script = await addInitScript(...args);
      page.initScripts.push(script);
      return script;
    };
    for (const name of ['route', 'routeFromHAR', 'routeWebSocket', 'exposeFunction', 'exposeBinding',
      'setExtraHTTPHeaders', 'setDefaultTimeout', 'setDefaultNavigationTimeout']) {
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
    const close = page.close.bind(page);
    page.close = async (...args) => {
      if (unpoolable.has(page) || args.length || page.isClosed()) {
        await close(...args);
      } else {
        for (const script of page.initScripts.splice(0)) await script.dispose();
        // Whatever the page was doing (a training run's workers, timers) stops now, not when
        // the tab is next used.
        await page.goto('about:blank');
        page.removeAllListeners();
        spare.push(page);
      }
      drop(page);
      // The tab opened before comes to the front, as a desktop browser shows it: a tab left
      // behind another stays hidden, where animations do not run (a wait for one to end took
      // 2.5 s per step in the embed test).
      const front = inUse.at(-1);
      if (front && !front.isClosed()) await front.bringToFront();
    };
  };
  const drop = (page) => {
    const at = inUse.indexOf(page);
    if (at >= 0) inUse.splice(at, 1);
  };

  return async function newPage(options = {}) {
    const size = options.viewport ?? viewport;
    let page = spare.pop();
    if (page) {
      await page.bringToFront();
      if (page.mediaEmulated) await page.emulateMedia({ media: null, colorScheme: null, reducedMotion: null, forcedColors: null, contrast: null });
      page.mediaEmulated = false;
      const now = page.viewportSize();
      if (now.width !== size.width || now.height !== size.height) await page.setViewportSize(size);
    } else {
      page = await context.newPage();
      track(page);
      if (options.viewport) await page.setViewportSize(size);
    }
    page.errors = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') page.errors.push(msg.text());
    });
    page.on('pageerror', (err) => page.errors.push(String(err)));
    inUse.push(page);
    page.once('close', () => drop(page));
    return page;
  };
}
