// Step 5 in Chromium: the page shows the step's model (web/steps/rope/model.js, whose numbers
// tests/js/rope-model.test.js checks against the rotations and the step's claims): the score
// q′·k′, pair 0's arithmetic, the shift buttons that move both positions, the pair diagrams and
// arcs, the flat shift plot, the keys, the URL.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadPosenc } from '../../wasm/posenc.js';
import { ropeModel } from '../../web/steps/rope/model.js';
import { startBrowser } from './browser.js';
import { openStep, plotDots, readout, setSlider, updateTimes, urlParams, pageUrl } from './steps.js';
// How the page prints a number: shared with the cross-engine suite.
import { fixed } from '../expect/rope.js';

const model = ropeModel(await loadPosenc({ simd: true }));

let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

async function expectState(page, qpos, kpos) {
  assert.equal(await page.inputValue('#rope input[name=qpos]'), String(qpos));
  assert.equal(await page.inputValue('#rope input[name=kpos]'), String(kpos));
  const qk = await readout(page, 'rope', 'qk');
  const want = model.readout({ qpos, kpos });
  assert.equal(qk.value, want.qk, `q′·k′ at (${qpos}, ${kpos})`);
  assert.equal(qk.text, fixed(want.qk, 2));
  // The signed offset n − m (key minus query, as steps 4 and 6 write it): the score sees the
  // sign (only this toy's q = k hides it).
  const offset = await readout(page, 'rope', 'offset');
  assert.equal(offset.value, kpos - qpos);
  assert.equal(offset.text, fixed(kpos - qpos, 0));
  const { q, k } = want;
  for (const [name, want0] of [['q0x', q[0]], ['q0y', q[1]], ['k0x', k[0]], ['k0y', k[1]]]) {
    const r = await readout(page, 'rope', name);
    assert.equal(r.value, want0, `${name} at (${qpos}, ${kpos})`);
    assert.equal(r.text, fixed(want0, 2), name);
  }
  return qk.value;
}

test("the seed's state m 3, n 7 reads q′·k′ 1.18, offset n − m = 4, q′ of pair 0 (−0.65, −0.31)", async () => {
  for (const query of ['', 'qpos=3&kpos=7']) {
    const page = await openStep(b, 'rope', query);
    await expectState(page, 3, 7);
    assert.equal((await readout(page, 'rope', 'qk')).text, '1.18');
    assert.equal((await readout(page, 'rope', 'offset')).text, '4');
    assert.equal((await readout(page, 'rope', 'q0x')).text, '−0.65');
    assert.equal((await readout(page, 'rope', 'q0y')).text, '−0.31');
    assert.equal((await readout(page, 'rope', 'k0x')).text, '0.19');
    assert.equal((await readout(page, 'rope', 'k0y')).text, '0.70');
    assert.deepEqual((await urlParams(page)), { step: 'rope', qpos: '3', kpos: '7' });
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test('each pair diagram draws q′ and k′ where the rotation puts them, names them off the unit circle, with Δᵢ = (n − m)·θᵢ in its title', async () => {
  const page = await openStep(b, 'rope', 'qpos=3&kpos=7');
  for (const [qpos, kpos] of [[3, 7], [12, 5], [0, 19]]) {
    await setSlider(page, 'rope', 'qpos', qpos);
    await setSlider(page, 'rope', 'kpos', kpos);
    const pairs = await page.$$eval('#rope .rotations svg.rotation', (svgs) => svgs.map((svg) => {
      const unit = svg.querySelector('circle.unit');
      const c = [Number(unit.getAttribute('cx')), Number(unit.getAttribute('cy')), Number(unit.getAttribute('r'))];
      const tip = (cls) => {
        const l = svg.querySelector(`line.vec.${cls}`);
        return [(Number(l.getAttribute('x2')) - c[0]) / c[2], (c[1] - Number(l.getAttribute('y2'))) / c[2]];
      };
      // The names' boxes against the unit circle: the nearest and farthest point from its centre.
      const crossing = [...svg.querySelectorAll('.rope-vec-label')].filter((t) => {
        const b = t.getBBox();
        const near = Math.hypot(Math.max(b.x - c[0], 0, c[0] - b.x - b.width), Math.max(b.y - c[1], 0, c[1] - b.y - b.height));
        const far = Math.max(...[[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]]
          .map(([x, y]) => Math.hypot(x - c[0], y - c[1])));
        return near < c[2] && far > c[2];
      }).map((t) => t.textContent);
      return { q: tip('q'), k: tip('k'), title: svg.querySelector('.rotation-title').textContent, label: svg.getAttribute('aria-label'),
        names: svg.querySelectorAll('.rope-vec-label').length, crossing };
    }));
    assert.equal(pairs.length, 4);
    const want = model.readout({ qpos, kpos }).pairs;
    pairs.forEach((p, i) => {
      for (let c = 0; c < 2; c++) {
        assert.ok(Math.abs(p.q[c] - want[i].q[c]) < 1e-3, `pair ${i} q′[${c}]: ${p.q[c]} vs ${want[i].q[c]}`);
        assert.ok(Math.abs(p.k[c] - want[i].k[c]) < 1e-3, `pair ${i} k′[${c}]: ${p.k[c]} vs ${want[i].k[c]}`);
      }
      assert.equal(p.title, `pair ${i}: Δ = ${fixed(want[i].delta, 3)}`);
      assert.ok(p.label.length > 40, 'each diagram describes itself');
      assert.equal(p.names, 2, `pair ${i}: q′ and k′ named`);
      assert.deepEqual(p.crossing, [], `pair ${i} at (${qpos}, ${kpos}): a name drawn across the unit circle`);
    });
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('every slider position shows the model’s q′·k′ and pair 0', async () => {
  const page = await openStep(b, 'rope');
  for (const [qpos, kpos] of [[0, 0], [19, 0], [0, 19], [5, 6], [11, 2], [19, 19], [8, 14], [3, 7]]) {
    await setSlider(page, 'rope', 'qpos', qpos);
    await setSlider(page, 'rope', 'kpos', kpos);
    await expectState(page, qpos, kpos);
    assert.deepEqual((await urlParams(page)), { step: 'rope', qpos: String(qpos), kpos: String(kpos) });
  }
  const times = await updateTimes(page, 'rope');
  assert.ok(times.length >= 16, 'every slider move was measured');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the shift buttons move both sliders, stop at the edges, and work by keyboard', async () => {
  // That the score stays the same under a shift is the model's claim: tests/js/rope-model.test.js.
  const page = await openStep(b, 'rope', 'qpos=3&kpos=7');
  await expectState(page, 3, 7);
  const up = page.locator('#rope button[name=shift][value="1"]');
  const down = page.locator('#rope button[name=shift][value="-1"]');
  for (let s = 1; s <= 12; s++) {
    await up.click();
    assert.deepEqual((await urlParams(page)), { step: 'rope', qpos: String(3 + s), kpos: String(7 + s) });
  }
  await expectState(page, 15, 19);
  // n = 19: one more step up would leave the range, so the button says so and does nothing.
  assert.equal(await up.getAttribute('aria-disabled'), 'true');
  await up.click({ force: true });  // Playwright treats aria-disabled as not clickable; a user still can.
  await expectState(page, 15, 19);
  for (let s = 1; s <= 15; s++) await down.click();
  await expectState(page, 0, 4);
  assert.equal(await down.getAttribute('aria-disabled'), 'true');
  assert.equal(await up.getAttribute('aria-disabled'), 'false');
  await down.click({ force: true });
  await expectState(page, 0, 4);
  // From the keyboard: Enter and Space on the focused button.
  await up.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Space');
  await expectState(page, 2, 6);
  const times = await updateTimes(page, 'rope');
  assert.ok(times.length >= 29, 'every shift was measured');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the arrow keys on a focused slider move that position', async () => {
  const page = await openStep(b, 'rope', 'qpos=3&kpos=7');
  await page.locator('#rope input[name=qpos]').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.locator('#rope input[name=kpos]').focus();
  await page.keyboard.press('ArrowLeft');
  await expectState(page, 5, 6);
  assert.deepEqual((await urlParams(page)), { step: 'rope', qpos: '5', kpos: '6' });
  await page.close();
});

test('the shift plot is flat along the diagonal, varies with m alone, and marks the current state', async () => {
  const page = await openStep(b, 'rope', 'qpos=3&kpos=7');
  for (const [qpos, kpos] of [[3, 7], [10, 2], [6, 6]]) {
    await setSlider(page, 'rope', 'qpos', qpos);
    await setSlider(page, 'rope', 'kpos', kpos);
    const plot = await page.$eval('#rope svg.lineplot', (svg) => {
      const ys = (path) => path.getAttribute('d').split(/[ML]/).filter(Boolean).map((p) => Number(p.split(',')[1]));
      return {
        flat: ys(svg.querySelector('path.series.a')),
        moving: ys(svg.querySelector('path.series.b')),
        markers: svg.querySelectorAll('circle.marker').length,
        label: svg.getAttribute('aria-label'),
        legend: svg.parentElement.querySelectorAll('.plot-legend .legend-item').length,
      };
    });
    // Every valid shift s (both positions stay in 0..19) is one point of the solid line.
    assert.equal((await page.$eval('#rope svg.lineplot', plotDots, 'a')).length, 20 - Math.abs(qpos - kpos));
    assert.ok(Math.max(...plot.flat) - Math.min(...plot.flat) < 0.05, `flat line: ${plot.flat}`);
    assert.equal(plot.moving.length, 20);
    // Moving m alone changes the score (tests/js/rope-model.test.js): the dashed line shows it.
    assert.ok(Math.max(...plot.moving) - Math.min(...plot.moving) > 10, 'the dashed line varies');
    assert.equal(plot.markers, 1);
    assert.equal(plot.legend, 2);
    assert.match(plot.label, new RegExp(`flat at ${fixed(model.readout({ qpos, kpos }).qk, 2).replace('.', '\\.')}`));
  }
  await page.close();
});

test('moving a slider writes the URL, and opening that URL restores the state', async () => {
  const page = await openStep(b, 'rope');
  await setSlider(page, 'rope', 'qpos', 11);
  await setSlider(page, 'rope', 'kpos', 2);
  await page.locator('#rope button[name=shift][value="1"]').click();
  const url = await pageUrl(page);
  assert.deepEqual((await urlParams(page)), { step: 'rope', qpos: '12', kpos: '3' });
  await page.close();
  const again = await b.newPage();
  await again.goto(url);
  await again.waitForSelector('#rope[data-shown=true]:not([hidden])');
  await expectState(again, 12, 3);
  assert.deepEqual(again.errors, []);
  await again.close();
});

test('out-of-range and malformed URL values are clamped, not an error page', async () => {
  const page = await openStep(b, 'rope', 'qpos=99&kpos=-5');
  await expectState(page, 19, 0);
  assert.deepEqual(page.errors, []);
  await page.close();
  const page2 = await openStep(b, 'rope', 'qpos=abc&kpos=6.6');
  await expectState(page2, 3, 7);
  assert.deepEqual((await urlParams(page2)), { step: 'rope', qpos: '3', kpos: '7' });
  assert.deepEqual(page2.errors, []);
  await page2.close();
  const page3 = await openStep(b, 'rope', 'qpos=%3Cb%3E&kpos=1e1');
  await expectState(page3, 3, 10);
  assert.deepEqual(page3.errors, []);
  await page3.close();
});

test('the notes give the model’s θᵢ and set the identity as display formulas', async () => {
  const page = await openStep(b, 'rope');
  const notes = await page.textContent('#rope .notes');
  for (let i = 0; i < 4; i++) assert.ok(notes.includes(fixed(model.theta[i], i)), `θ${i} = ${fixed(model.theta[i], i)} in the notes`);
  // Two display formulas between the paragraphs, not in them.
  const formulas = await page.$$eval('#rope .notes > .formula math', (ms) => ms.map((x) => x.textContent.replace(/\s+/g, '')));
  assert.deepEqual(formulas.slice(0, 1), ['R(a)TR(b)=R(b−a)']);
  assert.equal(formulas.length, 3, 'R(a)ᵀR(b), then the identity in two pieces');
  assert.equal(formulas.slice(1).join(''), '(R(mθi)qi)·(R(nθi)ki)=qi·(R((n−m)θi)ki)');
  assert.equal(await page.locator('#rope .notes p math[display=block]').count(), 0, 'no display formula inside a paragraph');
  // Inside the sentences only the inline offset n − m (kit/math.js inlineMath), one unbreakable box.
  assert.deepEqual(await page.$$eval('#rope .notes p math', (ms) => ms.map((x) => [x.className, x.textContent.replace(/\s+/g, '')])),
    [['math-inline', 'n−m']]);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// Students read pair 0's arc for Δ = −4 as wrong: it was drawn the short way round, +2.28 rad.
// Now the arc is the whole turn from q′ to k′: its winding angle (summed along the path, about
// the centre) is Δ, with the sign of Δ, even past one full turn, and it ends on k′'s direction.
test('each pair arc turns through the whole of Δᵢ = (n − m)·θᵢ, unwound, from q′ to k′', async () => {
  const page = await openStep(b, 'rope', 'qpos=3&kpos=7');
  for (const [qpos, kpos] of [[7, 3], [3, 7], [0, 19], [19, 0], [5, 5]]) {
    await setSlider(page, 'rope', 'qpos', qpos);
    await setSlider(page, 'rope', 'kpos', kpos);
    const arcs = await page.$$eval('#rope .rotations svg.rotation', (svgs) => svgs.map((svg) => {
      const unit = svg.querySelector('circle.unit');
      const cx = Number(unit.getAttribute('cx'));
      const cy = Number(unit.getAttribute('cy'));
      const pts = svg.querySelector('path.arc').getAttribute('d').replace(/[ML]/g, ' ').trim().split(/\s+/)
        .map((p) => p.split(',').map(Number));
      let wound = 0;
      for (let n = 1; n < pts.length; n++) {
        // y grows downwards in SVG: angles measured with y flipped, as the maths draws them.
        const a0 = Math.atan2(cy - pts[n - 1][1], pts[n - 1][0] - cx);
        const a1 = Math.atan2(cy - pts[n][1], pts[n][0] - cx);
        let d = a1 - a0;
        if (d > Math.PI) d -= 2 * Math.PI;
        if (d < -Math.PI) d += 2 * Math.PI;
        wound += d;
      }
      const start = Math.atan2(cy - pts[0][1], pts[0][0] - cx);
      const k = svg.querySelector('line.vec.k');
      const kAngle = Math.atan2(cy - Number(k.getAttribute('y2')), Number(k.getAttribute('x2')) - cx);
      const q = svg.querySelector('line.vec.q');
      const qAngle = Math.atan2(cy - Number(q.getAttribute('y2')), Number(q.getAttribute('x2')) - cx);
      return { wound, start, kAngle, qAngle, heads: svg.querySelectorAll('.arc-head').length };
    }));
    const wrap = (a) => Math.atan2(Math.sin(a), Math.cos(a));
    arcs.forEach((arc, i) => {
      const { delta } = model.readout({ qpos, kpos }).pairs[i];
      assert.ok(Math.abs(arc.wound - delta) < 0.02, `pair ${i} at (${qpos}, ${kpos}): the arc winds ${arc.wound.toFixed(3)} rad, Δ is ${delta.toFixed(3)}`);
      assert.ok(Math.abs(wrap(arc.start - arc.qAngle)) < 0.02, `pair ${i}: the arc starts on q′`);
      assert.ok(Math.abs(wrap(arc.start + arc.wound - arc.kAngle)) < 0.03, `pair ${i}: the arc ends on k′`);
      assert.equal(arc.heads, Math.abs(delta) > 0.05 ? 1 : 0, `pair ${i}: an arrowhead shows the direction of a visible turn`);
    });
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});
