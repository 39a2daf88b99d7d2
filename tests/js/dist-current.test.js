// assertDistCurrent (tests/browser/browser.js), which keeps the Chromium tests from opening a
// dist/ older than what it is built from: on a temporary tree, with file times set here.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { assertDistCurrent } from '../browser/browser.js';

const root = mkdtempSync(join(tmpdir(), 'posenc-dist-current-'));
after(() => rmSync(root, { recursive: true, force: true }));

const source = `${root}/`;
const dist = join(root, 'dist/');
const at = (path, seconds) => utimesSync(join(root, path), seconds, seconds);
const write = (path, seconds) => {
  writeFileSync(join(root, path), 'x');
  at(path, seconds);
};

/** A built tree: every source and folder at t = 100 s, dist/index.html at t = 200 s. */
function built() {
  rmSync(root, { recursive: true, force: true });
  for (const dir of ['web/kit', 'wasm/dist', 'dist']) mkdirSync(join(root, dir), { recursive: true });
  write('index.html', 100);
  write('web/kit/plot.js', 100);
  write('wasm/posenc.js', 100);
  write('wasm/dist/posenc-simd.wasm', 100);
  for (const dir of ['web/kit', 'web', 'wasm/dist', 'wasm']) at(dir, 100);
  write('dist/index.html', 200);
}

test('a dist/ built after its sources passes', () => {
  built();
  assert.doesNotThrow(() => assertDistCurrent({ dist, source }));
});

test('a source changed after the build fails, naming the file', () => {
  for (const path of ['index.html', 'web/kit/plot.js', 'wasm/posenc.js', 'wasm/dist/posenc-simd.wasm']) {
    built();
    at(path, 300);
    assert.throws(() => assertDistCurrent({ dist, source }), { message: new RegExp(`older than ${path.replace('.', '\\.')}:`) }, path);
  }
});

test('a file added or removed after the build fails through its folder; a dotfile does not', () => {
  built();
  write('web/kit/.plot.js.swp', 300);
  at('web/kit', 100);  // the swap file's arrival left as if it had not touched the folder
  assert.doesNotThrow(() => assertDistCurrent({ dist, source }), 'a dotfile');
  built();
  rmSync(join(root, 'web/kit/plot.js'));
  at('web/kit', 300);
  assert.throws(() => assertDistCurrent({ dist, source }), /older than web\/kit:/);
});

test('no dist/ at all fails with what to run', () => {
  built();
  rmSync(join(root, 'dist'), { recursive: true });
  assert.throws(() => assertDistCurrent({ dist, source }), /dist\/ is not built: run `npm run build`/);
});
