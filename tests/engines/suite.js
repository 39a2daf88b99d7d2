// The cross-engine suite: what must hold in every engine, run in Firefox and in WebKit (Chromium
// runs the full suite, tests/browser/). Every step opens from its URL with no page error and shows
// the readouts tests/expect/ computes; the SIMD probe picks a module the engine runs, and the
// scalar one loads where SIMD is missing; dist/ runs from a subpath under the strict CSP with no
// foreign request; the single file runs from file://; the Lab draws a frame. Every test name
// starts with the engine's name, so a failure says which engine it was.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { loadPosenc } from '../../wasm/posenc.js';
import { decodePng, imageStats } from '../native/png.js';
import { pinPage } from '../quiet/pin.js';
import { cpuSpans } from '../quiet/threads.js';
import { DIST } from '../browser/browser.js';
import { ALL_STEP_IDS } from '../browser/step-ids.js';
import { ATTENTION_MOVES, ATTENTION_PAGES, ATTENTION_START, setControl } from '../browser/perf-moves.js';
import { textsOutsideFigures } from '../browser/text-boxes.js';
import { driveControls, TIMED_CHANGES, timedSeed } from '../browser/drive.js';
import { frameFloor } from '../quiet/frame-floor.js';
import { percentile, perfDir } from '../browser/steps.js';
import { startEngine, serveSite, waitFor } from './engines.js';

const SINGLE = new URL('../../dist/positional-encoding.html', import.meta.url).href;
const SHOTS = new URL('../out/engines/', import.meta.url);

// PE(3)·PE(8) for d = 16: Σ_k cos(5·10000^(-2k/16)) — the relative step's readout, as in
// tests/browser/dist.test.js.
const relativeDot = Array.from({ length: 8 }, (_, k) => Math.cos(5 * 10000 ** (-(2 * k) / 16))).reduce((a, c) => a + c);

const ready = (page) => waitFor(page, 'body[data-ready=true]', () => document.body.dataset.ready === 'true', [], 60000);

/** Every [data-readout] of a step: { name: { text, value } } (value NaN without data-value). */
const readReadouts = (page, id) => page.eval((step) => Object.fromEntries(
  [...document.querySelectorAll(`#${step} [data-readout]`)].map((el) => [el.dataset.readout,
    { text: el.textContent.trim(), value: el.dataset.value ?? null }])), id);

/**
 * Compares the readouts with tests/expect/'s { name: { value, tol, text, near, check } } and returns
 * the mismatches: value within tol of data-value (a string value: equal to it), the exact text,
 * near: [want, slack] for a shown number within slack, check: [fn(value, text), what] for the rest.
 */
function compareReadouts(got, want) {
  const bad = [];
  const shown = (text) => Number(text.replace(/\u2212/g, '-').replace(/,/g, ''));
  for (const [name, w] of Object.entries(want)) {
    const g = got[name];
    if (!g) { bad.push(`${name}: missing`); continue; }
    const v = g.value === null ? NaN : Number(g.value);
    if (typeof w.value === 'string') {
      if (g.value !== w.value) bad.push(`${name}: value ${g.value}, want ${w.value}`);
    } else if ('value' in w) {
      const ok = Number.isNaN(w.value) ? Number.isNaN(v) : w.tol === 0 ? v === w.value : Math.abs(v - w.value) <= w.tol;
      if (!ok) bad.push(`${name}: value ${g.value}, want ${w.value} ± ${w.tol}`);
    }
    if ('text' in w && g.text !== w.text) bad.push(`${name}: shows "${g.text}", want "${w.text}"`);
    if (w.near && !(Math.abs(shown(g.text) - w.near[0]) <= w.near[1])) bad.push(`${name}: shows "${g.text}", want ${w.near[0]} ± ${w.near[1]}`);
    if (w.check && !w.check[0](v, g.text)) bad.push(`${name}: "${g.text}" (value ${g.value}) fails: ${w.check[1]}`);
  }
  return bad;
}

/**
 * Defines the suite for one engine ('firefox' or 'webkit'). Each engine's test file calls this,
 * so node's runner shows the engine's file and every test name carries the engine. With
 * { timing: true } it defines the update-time test alone (tests/quiet/ runs it with nothing
 * else running), and without, every other test (run by npm test beside the other suites).
 */
export function engineSuite(name, { timing = false } = {}) {
  const checkTest = timing ? () => {} : test;
  const timingTest = timing ? test : () => {};
  let engine;
  let source;  // the page from source, as the quiet Chromium timing and tests/browser's source tests serve it
  let dist;    // dist/ under a subpath, as on a static host
  // The timed WebKit runs without accelerated compositing: without a GPU, compositing runs
  // through llvmpipe on the machine's two cores (engines.js startEngine). The checks use the default mode.
  const compositing = !(timing && name === 'webkit');
  before(async () => {
    engine = await startEngine(name, { compositing });
    source = await serveSite(name, {});
    dist = await serveSite(name, { root: DIST, prefix: '/courses/ml/pe/' });
    await mkdir(SHOTS, { recursive: true });
  });
  after(async () => {
    await source?.close();
    await dist?.close();
    await engine?.close();
  });

  test(`${name}: the engine starts`, (t) => { t.diagnostic(`${name}: ${engine.version}${compositing ? '' : ', accelerated compositing off'}`); });

  checkTest(`${name}: a page's uncaught error, rejected promise and console.error reach the test`, async () => {
    // Without this, "no page error" below could pass because nothing listens. The errors come
    // from a script of the page's own origin (a driver's evaluated code may run apart from the
    // page's listeners, as WebKit's does): tests/out/ is gitignored and served with the source.
    await writeFile(new URL('probe-errors.js', SHOTS), [
      "setTimeout(() => { throw new Error('posenc-probe-uncaught'); }, 0);",
      "Promise.reject(new Error('posenc-probe-rejected'));",
      "console.error('posenc-probe-console');",
    ].join('\n'));
    const page = await engine.open(`${source.url}?step=order`);
    await ready(page);
    await page.eval(() => {
      const el = document.createElement('script');
      el.src = 'tests/out/engines/probe-errors.js';
      document.head.append(el);
    });
    let errors = [];
    for (let i = 0; i < 50 && errors.length < 3; i++) {
      await new Promise((r) => setTimeout(r, 100));
      errors = (await page.errors()).filter((e) => e.includes('posenc-probe-'));
    }
    for (const what of ['uncaught', 'rejected', 'console']) {
      assert.ok(errors.some((e) => e.includes(`posenc-probe-${what}`)), `${name}: the ${what} error was not heard: ${JSON.stringify(errors)}`);
    }
    await page.close();
  });

  for (const id of ALL_STEP_IDS) {
    checkTest(`${name}: step ${id} opens from its URL with no page error and shows the readouts computed here`, async () => {
      const { seed } = await import(`../expect/${id}.js`);
      const want = await seed();
      const page = await engine.open(`${source.url}?step=${id}${want.query ? `&${want.query}` : ''}`);
      await ready(page);
      if (want.ready) await waitFor(page, want.ready, (sel) => !!document.querySelector(sel), [want.ready], 30000);
      // Pictures of the step as this engine draws it, for a person to look at (tests/out/engines/):
      // its first two screens. (A viewport shot after two frames: WebKit's element shots stop at
      // the viewport's edge, and a shot right after scrolling can show the old position.)
      for (const part of [1, 2]) {
        await page.eval((step, k) => new Promise((resolve) => {
          window.scrollTo(0, document.getElementById(step).getBoundingClientRect().top + window.scrollY + (k - 1) * (innerHeight - 40));
          requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 50)));
        }), id, part);
        await writeFile(new URL(`${name}-${id}${part === 1 ? '' : '-2'}.png`, SHOTS), await page.screenshot());
      }
      assert.equal(await page.eval((step) => document.getElementById(step).hidden, id), false, `${name} ${id}: the step shows`);
      // A formula set beside others (a flex item) is as wide as what it shows: Firefox and WebKit
      // size a formula for its brackets' largest stretch and left gaps between formulas, until
      // brackets stopped stretching by default (web/kit/math.js). The few that stretch on purpose,
      // around a fraction, may each leave a few pixels (WebKit: 10 px for sinusoidal's four).
      const loose = await page.eval((step) => [...document.querySelectorAll(`#${step} math`)]
        .filter((el) => /flex/.test(getComputedStyle(el.parentElement).display) && el.firstElementChild)
        .map((el) => {
          const stretchy = [...el.querySelectorAll('mo')].filter((o) => /^[()[\]{}|‖]$/.test(o.textContent) && o.getAttribute('stretchy') !== 'false').length;
          return [el.getAttribute('aria-label'), el.getBoundingClientRect().width - el.firstElementChild.getBoundingClientRect().width, 2 + 6 * stretchy];
        })
        .filter(([, extra, allowed]) => extra > allowed), id);
      assert.deepEqual(loose, [], `${name} ${id}: formulas wider than their content (label, extra px, allowed px)`);
      // Text cut at a figure's edge or run into its neighbour: the kit sizes margins by measuring
      // labels in this engine's fonts (web/kit/textfit.js).
      const { out } = await page.eval(textsOutsideFigures, id);
      assert.deepEqual(out, [], `${name} ${id}: figure text outside its figure or run together`);
      const bad = compareReadouts(await readReadouts(page, id), want.readouts);
      assert.deepEqual(bad, [], `${name} ${id} (?${want.query}): readouts differ`);
      assert.deepEqual(await page.errors(), [], `${name} ${id}: page errors`);
      await page.close();
    });
  }

  timingTest(`${name}: update times, every step through the seeded changes Chromium's quiet test makes, and the attention step at 2,048 tokens through the Chromium test's changes`, async (t) => {
    // The durations of the page's update:<step> measures (web/app.js), written for the report
    // (tests/browser/perf-report.mjs prints one table per engine); a report, never a pass/fail.
    // The same changes as tests/quiet/chromium.test.js (drive.js, same seeds and count, one
    // frame apart), so the three engines' tables count the same work.
    const dir = new URL(`${name}/`, perfDir);  // <engine>/<row>.json, read by perf-report.mjs
    await mkdir(dir, { recursive: true });
    const times = (page, step) => page.eval((s) => performance.getEntriesByName(`update:${s}`).map((e) => e.duration), step);
    const walk = await engine.open(`${source.url}?step=${ALL_STEP_IDS[0]}`);
    await ready(walk);
    const cpu = cpuSpans();  // every thread's CPU time over the walk and the moves (threads.js)
    // The page's main thread on a core of its own while timed (pin.js); pinned again for each
    // attention page load below.
    let pins = await pinPage(name);
    const pinned = [pins];
    t.after(() => pins.release());  // also when an assertion ends the test early
    await cpu.start();
    for (const id of ALL_STEP_IDS) {
      const done = await walk.eval(driveControls, { id, count: TIMED_CHANGES, seed: timedSeed(id), frames: true });
      assert.ok(done > 0, `${name}: step ${id}: no control to change`);
      const got = await times(walk, id);
      // Every change runs at least one update (a step's own redraws are arrival:<step>, apart).
      assert.ok(got.length >= done, `${name}: step ${id}: ${got.length} updates timed for ${done} changes`);
      await writeFile(new URL(`${id}.json`, dir), JSON.stringify(got));
    }
    assert.deepEqual(await walk.errors(), [], `${name}: page errors in the walk over every step`);
    await cpu.end();
    await pins.release();
    await walk.close();

    // The attention sequence in ATTENTION_PAGES page loads (perf-moves.js says why), each pinned
    // again: its process may be a new one. The threads' CPU is read over each load's changes, and
    // before the page closes (threads.js: a closing page's process may take its threads with it).
    let attention = [];
    const counts = [];  // updates per page load, for the report's p95 of each
    for (let k = 0; k < ATTENTION_PAGES; k++) {
      const page = await engine.open(`${source.url}?${ATTENTION_START}`);
      await waitFor(page, 'the attention step shown', () => document.getElementById('attention').dataset.shown === 'true', [], 60000);
      pins = await pinPage(name);
      pinned.push(pins);
      await cpu.start();
      let changed = 0;
      for (const [control, value] of ATTENTION_MOVES) if (await page.eval(setControl, 'attention', control, value)) changed++;
      const got = await times(page, 'attention');
      await cpu.end();
      await pins.release();
      // One measure per change that changed something (a radio already chosen changes nothing).
      assert.equal(got.length, changed, `${name}: attention updates measured`);
      assert.ok(changed >= 40, `${name}: ${changed} attention changes`);
      // The last state is the Chromium test's: ALiBi, no mask, query 1800, head 4, one view.
      await waitFor(page, 'the last change\'s URL written', () => !document.body.dataset.urlPending, [], 5000);
      assert.deepEqual(await page.eval(() => Object.fromEntries(new URLSearchParams(location.search))),
        { step: 'attention', family: 'alibi', versus: 'none', view: 'single', n: '2048', causal: '0', head: '4', i: '1800', j: '5' });
      assert.deepEqual(await page.errors(), [], `${name}: page errors`);
      attention = attention.concat(got);
      counts.push(got.length);
      await page.close();
    }
    await writeFile(new URL('attention-2048.json', dir), JSON.stringify(attention));
    await writeFile(new URL('loads-attention-2048.json', dir), JSON.stringify(counts));
    t.diagnostic(`${name}: attention at 2,048 tokens, ${attention.length} updates in ${ATTENTION_PAGES} page loads: p95 ${percentile(attention, 95).toFixed(1)} ms`);
    const threads = cpu.result();
    if (threads) await writeFile(new URL('threads.json', dir), JSON.stringify(threads));
    await writeFile(new URL('pinned.json', dir), JSON.stringify(pinned.map(({ release, ...p }) => p)));
  });

  timingTest(`${name}: its frame floor, the CPU per frame of a blank page changing one character per frame`, async () => {
    const page = await engine.open('about:blank');
    const floor = await frameFloor((fn, arg) => page.eval(fn, arg));
    await mkdir(new URL(`${name}/`, perfDir), { recursive: true });
    if (floor) await writeFile(new URL(`${name}/floor.json`, perfDir), JSON.stringify(floor));
    await page.close();
  });

  // The same floor in WebKit's default mode, compositing through llvmpipe, for the report: the
  // CPU per frame WebKit takes from the machine's cores in that mode.
  (timing && !compositing ? test : () => {})(`${name}: its frame floor with accelerated compositing on (the default), through llvmpipe`, async () => {
    const composited = await startEngine(name);
    try {
      const page = await composited.open('about:blank');
      const floor = await frameFloor((fn, arg) => page.eval(fn, arg));
      await mkdir(new URL(`${name}/`, perfDir), { recursive: true });
      if (floor) await writeFile(new URL(`${name}/floor-composited.json`, perfDir), JSON.stringify(floor));
    } finally {
      await composited.close();
    }
  });

  checkTest(`${name}: the SIMD probe picks the module this engine validates, and that module computes the readouts`, async (t) => {
    const page = await engine.open(`${source.url}?step=relative&i=3&j=8`);
    await ready(page);
    // Whether the engine takes the SIMD build itself, asked of the built module's own bytes.
    const validates = await page.eval(async () => {
      const bytes = await (await fetch('wasm/dist/posenc-simd.wasm')).arrayBuffer();
      return WebAssembly.validate(bytes);
    });
    const got = await page.eval(() => ({ simd: document.body.dataset.simd, engine: document.getElementById('engine').textContent }));
    t.diagnostic(`${name}: validates the SIMD module: ${validates}; the page runs ${got.simd === 'true' ? 'SIMD' : 'scalar'} ("${got.engine}")`);
    assert.equal(got.simd, String(validates), `${name}: data-simd follows the engine`);
    assert.match(got.engine, validates ? /SIMD/ : /scalar/);
    const dot = Number(await page.eval(() => document.querySelector('#relative [data-readout=dot]').dataset.value));
    assert.ok(Math.abs(dot - relativeDot) < 1e-6, `${name}: PE(3)·PE(8) = ${dot}, want ${relativeDot}`);
    assert.deepEqual(await page.errors(), [], `${name}: page errors`);
    await page.close();
  });

  checkTest(`${name}: with WebAssembly SIMD hidden, dist/ loads the scalar module and the readouts are right`, async () => {
    const page = await engine.open(`${dist.urlWithoutSimd}?step=relative&i=3&j=8`, { noSimd: true });
    await ready(page);
    assert.equal(await page.eval(() => document.body.dataset.simd), 'false', `${name}: data-simd`);
    assert.match(await page.eval(() => document.getElementById('engine').textContent), /scalar/);
    const dot = Number(await page.eval(() => document.querySelector('#relative [data-readout=dot]').dataset.value));
    assert.ok(Math.abs(dot - relativeDot) < 1e-6, `${name}: PE(3)·PE(8) = ${dot} on the scalar module`);
    // The probe really saw no SIMD: the engine refuses the SIMD module's bytes now.
    assert.equal(await page.eval(async () => WebAssembly.validate(await (await fetch('core/posenc-simd.wasm')).arrayBuffer())), false);
    assert.deepEqual(await page.errors(), [], `${name}: page errors`);
    await page.close();
  });

  checkTest(`${name}: dist/ under /courses/ml/pe/ runs every step under the strict CSP, with no foreign request`, async () => {
    const res = await fetch(`${dist.url}?step=relative`);
    assert.match(res.headers.get('content-security-policy'), /script-src 'self' 'wasm-unsafe-eval'/);
    const page = await engine.open(`${dist.url}?step=relative&i=3&j=8`);
    await ready(page);
    assert.equal(await page.eval(() => document.body.dataset.simd), 'true', `${name}: SIMD where the engine has it`);
    for (const id of ALL_STEP_IDS) {
      await page.eval((step) => document.querySelector(`#step-nav [data-step=${step}]`).click(), id);
      await waitFor(page, `step ${id} shown`, (step) => !document.getElementById(step).hidden && document.getElementById(step).childElementCount > 0, [id]);
    }
    assert.deepEqual(await page.violations(), [], `${name}: CSP violations`);
    assert.deepEqual(await page.errors(), [], `${name}: page errors`);
    // Every request the page made (resource timing: scripts, styles, fetches, modules) stayed
    // under the site's own path.
    const requests = await page.eval(() => performance.getEntriesByType('resource').map((e) => e.name));
    const base = new URL(dist.url);
    assert.ok(requests.length > 20, `${name}: ${requests.length} requests seen`);
    assert.deepEqual(requests.filter((u) => !u.startsWith(`${base.origin}${base.pathname}`) && !u.startsWith('data:')), [], `${name}: foreign requests`);
    // And the engine enforces the policy, and the recorder hears it: an inline script (no
    // 'unsafe-inline') does not run and is reported. (Not eval: a driver's own evaluation may
    // be exempt from the page's CSP, as Firefox's BiDi evaluation is.)
    await page.eval(() => {
      const el = document.createElement('script');
      el.textContent = 'window.__inlineRan = true;';
      document.head.append(el);
    });
    await waitFor(page, 'the inline script\'s violation', () => (window.__engine?.violations ?? []).length > 0, [], 5000);
    assert.equal(await page.eval(() => window.__inlineRan === true), false, `${name}: an inline script ran under the CSP`);
    assert.match((await page.violations()).join('\n'), /script-src/);
    await page.close();
  });

  checkTest(`${name}: the single HTML file opens from file:// and computes the readouts, with no request and no CSP violation`, async (t) => {
    // Two openings, each with another first step, so that every step is built at least once while
    // the recorder listens (in WebKit it can only start after the page has begun: see engines.js).
    for (const first of ['relative', 'quiz']) {
      const page = await engine.open(`${SINGLE}?step=${first}&i=3&j=8`);
      if (page.lateRecorder && first === 'relative') {
        t.diagnostic(`${name}: classic WebDriver runs nothing before a file:// page's own script; errors and CSP violations are recorded from just after navigation`);
      }
      await ready(page);
      if (first === 'relative') {
        const dot = await page.eval(() => {
          const el = document.querySelector('#relative [data-readout=dot]');
          return { text: el.textContent.trim(), value: Number(el.dataset.value) };
        });
        assert.ok(Math.abs(dot.value - relativeDot) < 1e-6, `${name}: PE(3)·PE(8) = ${dot.value}`);
        assert.equal(dot.text, '6.14');
        assert.equal(await page.eval(() => document.body.dataset.simd), 'true');
      }
      for (const id of ALL_STEP_IDS) {
        await page.eval((step) => document.querySelector(`#step-nav [data-step=${step}]`).click(), id);
        await waitFor(page, `step ${id} shown`, (step) => !document.getElementById(step).hidden && document.getElementById(step).childElementCount > 0, [id]);
      }
      assert.deepEqual(await page.violations(), [], `${name}: CSP violations (first step ${first})`);
      assert.deepEqual(await page.errors(), [], `${name}: page errors (first step ${first})`);
      const requests = await page.eval(() => performance.getEntriesByType('resource').map((e) => e.name));
      assert.deepEqual(requests.filter((u) => !u.startsWith(SINGLE) && !u.startsWith('data:') && !u.startsWith('blob:')), [], `${name}: requests from the single file`);
      await page.close();
    }
  });

  checkTest(`${name}: the Lab (dist/lab.html) draws a frame on WebGL2, and shows the core's numbers`, async (t) => {
    const page = await engine.open(`${dist.url}lab.html?family=sinusoidal&len=64&d=16&base=100`);
    // What this engine offers, asked of a canvas of its own, with the reason when it refuses.
    const gl = await page.eval(() => {
      const c = document.createElement('canvas');
      let why = '';
      c.addEventListener('webglcontextcreationerror', (e) => { why = e.statusMessage; });
      const g = c.getContext('webgl2');
      return g ? { renderer: g.getParameter(g.RENDERER), version: g.getParameter(g.VERSION) } : { why: why || 'getContext("webgl2") returned null' };
    });
    if (!gl.renderer) {
      // Said, not passed: the test is skipped with the engine's own reason, counted as skipped.
      t.diagnostic(`${name}: no WebGL2 under software GL: ${gl.why}`);
      t.skip(`${name} has no WebGL2 here (${gl.why}), so the Lab cannot draw`);
      await page.close();
      return;
    }
    t.diagnostic(`${name}: WebGL2 on ${gl.renderer} (${gl.version})`);
    // Ready, or a status that says why not (the Lab names what it misses or what failed).
    await waitFor(page, 'the Lab ready or its reason', () => document.body.dataset.ready === 'true' ||
      !/^Loading/.test(document.getElementById('lab-status').textContent), [], 60000);
    const status = await page.eval(() => document.getElementById('lab-status').textContent);
    assert.equal(await page.eval(() => document.body.dataset.ready), 'true', `${name}: the Lab did not start: ${status}`);
    await waitFor(page, 'the Lab settled', () => window.posencLab.settled(), [], 60000);
    const frames = await page.eval(() => window.posencLab.stat('frames'));
    await waitFor(page, 'two more frames', (n) => window.posencLab.stat('frames') >= n + 2, [frames], 60000);
    const shot = await page.elementScreenshot('#lab-canvas');
    await writeFile(new URL(`${name}-lab.png`, SHOTS), shot);
    const stats = imageStats(decodePng(shot));
    assert.ok(stats.colours > 200, `${name}: the canvas looks blank: ${stats.colours} colours`);
    assert.ok(stats.foreground > 0.3, `${name}: the canvas looks blank: ${(stats.foreground * 100).toFixed(1)} % drawn`);
    // The numbers it shows are the core's: the same float32 as the JS API in Node.
    const table = (await loadPosenc()).sinusoidal(64, 16, { base: 100 });
    for (const [p, i] of [[5, 3], [63, 15], [17, 8]]) {
      assert.equal(await page.eval((a, b) => window.posencLab.readout('table', a, b), p, i), table[p * 16 + i], `${name}: table[${p}, ${i}]`);
    }
    assert.deepEqual(await page.violations(), [], `${name}: CSP violations`);
    assert.deepEqual(await page.errors(), [], `${name}: page errors`);
    await page.close();
  });
}
