// The plots' redraw (web/kit/svg-patch.js patch), in Chromium on the page's own module: after
// any sequence of drawings the group holds exactly the parts asked for, in order, with their
// attributes and text, whatever the previous drawing held; and a drawing that drops or adds
// a part near the start keeps the elements of the parts after it instead of building them anew.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SOURCE, startBrowser } from './browser.js';
import { openStep } from './steps.js';

let b;
// From source: the test imports the kit's own module (web/kit/svg-patch.js), which dist/ bundles.
before(async () => { b = await startBrowser({ root: SOURCE }); });
after(async () => { await b?.close(); });

test('patch: 300 seeded drawings of random parts each leave exactly those parts; a foreign child is removed', async () => {
  const page = await openStep(b, 'sinusoidal');
  const bad = await page.evaluate(async () => {
    const { patch } = await import(new URL('web/kit/svg-patch.js', document.baseURI).href);
    let s = 5;
    const random = () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648; };
    const TAGS = ['line', 'text', 'path', 'circle'];
    const group = document.createElementNS('http://www.w3.org/2000/svg', 'g');
    document.body.append(group);
    const problems = [];
    let parts = [];
    for (let round = 0; round < 300 && problems.length < 5; round++) {
      // The next drawing: the last one with a few parts dropped, added or changed, or a new one.
      const next = random() < 0.1 ? [] : parts.map((p) => [...p]);
      const edits = 1 + Math.floor(random() * 4);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(random() * (next.length + 1));
        const kind = random();
        const part = [TAGS[Math.floor(random() * 4)], { x: Math.round(random() * 9), class: random() < 0.5 ? 'a' : 'b', hidden: random() < 0.2 }];
        if (random() < 0.5) part.push(`t${Math.floor(random() * 3)}`);
        if (kind < 0.4) next.splice(at, 0, part);
        else if (kind < 0.8) next.splice(at, 1);
        else next.splice(at, 1, part);
      }
      if (random() < 0.1) group.prepend(document.createElementNS('http://www.w3.org/2000/svg', 'rect'));
      patch(group, next);
      parts = next;
      const kids = [...group.children];
      if (kids.length !== parts.length) problems.push(`round ${round}: ${kids.length} children for ${parts.length} parts`);
      parts.forEach(([tag, attrs, text], k) => {
        const el = kids[k];
        if (!el) return;
        const want = Object.entries(attrs).filter(([, v]) => v !== false).map(([n, v]) => `${n}=${v === true ? '' : v}`).sort().join(' ');
        const got = [...el.attributes].map((a) => `${a.name}=${a.value}`).sort().join(' ');
        if (el.localName !== tag || got !== want || el.textContent !== (text ?? '')) {
          problems.push(`round ${round}, part ${k}: <${el.localName} ${got}>${el.textContent} for <${tag} ${want}>${text ?? ''}`);
        }
      });
    }
    group.remove();
    return problems;
  });
  assert.deepEqual(bad, []);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('patch: a guide line dropped before 129 points, then added back, keeps the points\' elements', async () => {
  const page = await openStep(b, 'sinusoidal');
  const kept = await page.evaluate(async () => {
    const { patch } = await import(new URL('web/kit/svg-patch.js', document.baseURI).href);
    const group = document.createElementNS('http://www.w3.org/2000/svg', 'g');
    document.body.append(group);
    const points = Array.from({ length: 129 }, (_, k) => ['circle', { cx: k, cy: 2 * k, r: 3 }]);
    const guides = (n) => Array.from({ length: n }, (_, k) => [['line', { y1: k, y2: k }], ['text', { y: k }, `g${k}`]]).flat();
    patch(group, [...guides(3), ['path', { d: 'M0,0' }], ...points]);
    const before = [...group.querySelectorAll('circle')];
    patch(group, [...guides(2), ['path', { d: 'M0,0' }], ...points]);  // one guide (line + text) fewer
    const fewer = [...group.querySelectorAll('circle')];
    patch(group, [...guides(3), ['path', { d: 'M0,0' }], ...points]);  // and back
    const back = [...group.querySelectorAll('circle')];
    group.remove();
    return { fewer: fewer.filter((c, k) => c === before[k]).length, back: back.filter((c, k) => c === before[k]).length };
  });
  assert.deepEqual(kept, { fewer: 129, back: 129 });
  await page.close();
});
