// The desktop Lab (build/native/posenc-lab: wasm/lab/ with GLFW + OpenGL 3) under a virtual X
// display: it runs a few frames, writes its last frame as PNG, and that image shows the Lab;
// another state draws other pixels; frame times at N = 2048 are reported (never asserted).
// Skipped, saying why, only when xvfb-run is missing (wasm/tools/setup.sh installs it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { decodePng, imageStats, pixelDifference } from './png.js';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url);
const binary = process.env.POSENC_LAB_NATIVE ?? new URL('build/native/posenc-lab', root).pathname;
const out = new URL('tests/out/', root);

async function exists(path) {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

const xvfb = (await exists('/usr/bin/xvfb-run')) ? '/usr/bin/xvfb-run' : null;
const skip = xvfb ? false : 'xvfb-run is not installed (Debian package xvfb; wasm/tools/setup.sh installs it): no display server for the desktop Lab';

/** Runs the Lab for `frames` frames in `state`; returns { stdout, image, times }. */
async function lab(state, { frames = 6, name, extra = [] } = {}) {
  const file = name ? new URL(`lab-native-${name}.png`, out).pathname : null;
  const args = ['-a', '-s', '-screen 0 1280x860x24', binary, '--size', '1200x800', '--frames', String(frames),
    '--state', state, ...(file ? ['--screenshot', file] : []), ...extra];
  const { stdout } = await run(xvfb, args, { timeout: 120000, env: { ...process.env, LIBGL_ALWAYS_SOFTWARE: '1' } });
  const times = (stdout.match(/frame-ms ([\d. ]+)/)?.[1] ?? '').trim().split(/\s+/).filter(Boolean).map(Number);
  return { stdout, image: file ? decodePng(await readFile(file)) : null, times };
}

test('the desktop Lab draws its figures under Xvfb, and another state draws other pixels', { skip, timeout: 240000 }, async (t) => {
  assert.ok(await exists(binary), `${binary} is missing: wasm/tools/build.sh builds it`);
  await mkdir(out, { recursive: true });

  const rope = await lab('family=rope&len=256&d=64&qpos=128&kpos=120', { name: 'rope' });
  assert.equal(rope.image.width, 1200);
  assert.equal(rope.image.height, 800);
  const stats = imageStats(rope.image);
  t.diagnostic(`rope frame: ${stats.colours} colours, ${(stats.foreground * 100).toFixed(1)} % off the background`);
  assert.ok(stats.colours > 200, `a blank-looking frame: only ${stats.colours} colours`);
  assert.ok(stats.foreground > 0.3, `a blank-looking frame: ${(stats.foreground * 100).toFixed(1)} % off the background`);
  assert.match(rope.stdout, /state family=rope&.*len=256/);

  const alibi = await lab('family=alibi&len=256&d=64&heads=8&head=2&causal=1', { name: 'alibi' });
  const changed = pixelDifference(rope.image, alibi.image);
  t.diagnostic(`alibi vs rope: ${(changed * 100).toFixed(1)} % of pixels differ`);
  assert.ok(changed > 0.05, `changing the family changed only ${(changed * 100).toFixed(2)} % of the pixels`);
  assert.match(alibi.stdout, /state family=alibi&.*causal=1.*heads=8&head=2/);

  // The same catalogs as the page: Russian in the light theme, every glyph in the font.
  const ru = await lab('family=t5&len=128&causal=0', { name: 'ru-light', extra: ['--lang', 'ru', '--theme', 'light'] });
  assert.match(ru.stdout, /lang ru, theme light, 0 code points without a glyph/);
  const en = await lab('family=t5&len=128&causal=0', { frames: 2, extra: ['--lang', 'en', '--theme', 'dark'] });
  assert.match(en.stdout, /lang en, theme dark, 0 code points without a glyph/);
  const lum = ({ data }) => { let s = 0; for (let i = 0; i < data.length; i += 4) s += data[i + 1]; return s / (data.length / 4); };
  assert.ok(lum(ru.image) > lum(rope.image) + 60, 'the light theme is lighter than the dark one');

  // A link from before the family names were the registry's: family=relative opens T5.
  const old = await lab('family=relative&len=128&causal=0', { frames: 2 });
  assert.match(old.stdout, /state family=t5&/);

  // A refused state shows the core's message instead of crashing.
  const past = await lab('family=learned&len=64&table=32', { frames: 2 });
  assert.match(past.stdout, /core: positions\[32\] = 32 is past the learned table/);
});

test('the desktop Lab at N = 2048: frame times idle and recomputing every frame (reported)', { skip, timeout: 300000 }, async (t) => {
  const idle = await lab('family=rope&len=2048&d=64&qpos=1024&kpos=1000', { frames: 8 });
  const sweep = await lab('family=rope&len=2048&d=64&qpos=1024&kpos=1000', { frames: 5, extra: ['--sweep'] });
  for (const [what, r] of [['idle', idle], ['recomputing every frame (--sweep)', sweep]]) {
    assert.ok(r.times.length > 0 && r.times.every(Number.isFinite), `no frame times in: ${r.stdout}`);
    t.diagnostic(`N = 2048, ${what}: ${r.stdout.split('\n').slice(0, 2).join(' | ')}`);
  }
  const dir = new URL('perf/', out);
  await mkdir(dir, { recursive: true });
  await writeFile(new URL('lab-native-2048-idle.json', dir), JSON.stringify(idle.times));
  await writeFile(new URL('lab-native-2048-change.json', dir), JSON.stringify(sweep.times));
});
