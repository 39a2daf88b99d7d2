// `npm run build` (after the wasm build): the hosted site and the single file, in dist/.
//   dist/index.html, app.js, app.css, i18n/, core/   the static site; relative URLs only, so it
//                                                     works from any subpath of any static host
//   dist/preload.js                                   names the opened step's first-screen files
//                                                     at once (web/preload.js)
//   dist/steps/<id>.css                               each step's styles, loaded with the step
//                                                     (app.css holds the shared ones)
//   dist/train/worker.js, data/                       the train step's Web Worker and reference
//                                                     run (loaded only by the train step and the
//                                                     trained panels; the trainer modules in core/)
//   dist/web/examples/                                the example course page embedding steps
//   dist/lab.html, dist/lab/                          the Lab (Dear ImGui over the core, WebGL2)
//   dist/positional-encoding.html                     everything inlined (JS, CSS, catalogs and
//                                                     both wasm modules); opens from file://
// Prints the gzip size of what the hosted explainer loads.
import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { LANGUAGES, PAGE_PARTS } from '../i18n.js';
import { PARTS } from '../catalog-parts.js';
import { STEPS, STEP_STYLES } from '../steps/index.js';
import { TEMPLATE_NAMES } from '../steps/code/snippets.js';

const root = new URL('../../', import.meta.url);
const dist = new URL('dist/', root);
const at = (path) => new URL(path, root).pathname;

// CSS, minified: the shared styles alone, or they and each step's in the registry's order
// (index.html links the same files in the same order; tests/js/registry.test.js checks it).
async function cssOf(hrefs) {
  const parts = await Promise.all(hrefs.map((href) => readFile(at(href), 'utf8')));
  const result = await esbuild.transform(parts.join('\n'), { loader: 'css', minify: true });
  return result.code;
}

async function catalogs() {
  const out = {};
  for (const lang of LANGUAGES) {
    out[lang] = {};
    for (const part of PARTS) out[lang][part] = JSON.parse(await readFile(at(`web/i18n/${lang}/${part}.json`), 'utf8'));
  }
  return out;
}

// Step "code"'s program templates (web/steps/code/snippets/*.py) go into the bundles as text in
// place of web/steps/code/templates.js, which fetches them beside itself from source: the
// hosted site fetches no .py file and the single file needs none.
async function codeTemplates() {
  const texts = {};
  for (const name of TEMPLATE_NAMES) texts[name] = await readFile(at(`web/steps/code/snippets/${name}`), 'utf8');
  return {
    name: 'code-templates',
    setup(build) {
      build.onLoad({ filter: /[\\/]web[\\/]steps[\\/]code[\\/]templates\.js$/ }, () => ({
        contents: `export const TEMPLATES = ${JSON.stringify(texts)};`, loader: 'js',
      }));
    },
  };
}

// Step "your-model"'s atlas (web/data/atlas.json) goes into that step's chunk in place of
// web/steps/your-model/atlas.js, which fetches it from source: it loads with the step and with no
// other step's first screen, and the single file carries it. Only its models: its 'about' is for
// readers of the file.
async function atlasModule() {
  const { models } = JSON.parse(await readFile(at('web/data/atlas.json'), 'utf8'));
  return {
    name: 'atlas',
    setup(build) {
      build.onLoad({ filter: /[\\/]web[\\/]steps[\\/]your-model[\\/]atlas\.js$/ }, () => ({
        contents: `export const ATLAS = ${JSON.stringify({ models })};`, loader: 'js',
      }));
    },
  };
}

// wasm/posenc.js re-exports modelPositions (wasm/model.js) for the package; the page reads configs
// through wasm/model.js itself (step your-model). esbuild's code splitting puts a file in a chunk
// shared by every entry that can reach it, used or not, so through that re-export model.js (28 kB)
// sat in a chunk app.js imports on every first screen. In the hosted build the re-export points at
// an empty name instead, and model.js is in the your-model step's chunk only.
const pageWithoutReexport = {
  name: 'page-without-model-reexport',
  setup(build) {
    build.onResolve({ filter: /^\.\/model\.js$/ }, (args) => (/[\\/]wasm[\\/]posenc\.js$/.test(args.importer)
      ? { path: 'model-reexport', namespace: 'posenc-page' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'posenc-page' }, () => ({ contents: 'export const modelPositions = undefined;', loader: 'js' }));
  },
};

// Replacements go through functions: a "$" in minified code must not be read as a pattern.
function pageHtml(html, { head, body }) {
  return html
    .replace(/\s*<link rel="stylesheet" href="[^"]+">/g, '')
    .replace(/\s*<script type="module" src="web\/main.js"><\/script>/, () => head)
    .replace('</body>', () => `${body}</body>`);
}

const sha256 = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

async function main() {
  await rm(dist, { recursive: true, force: true });
  await mkdir(new URL('core/', dist), { recursive: true });
  const html = await readFile(at('index.html'), 'utf8');
  const css = await cssOf(['web/styles.css', ...STEP_STYLES]);  // the single file's, all of it
  const templates = await codeTemplates();
  const atlas = await atlasModule();

  // The hosted site: app.js, and a chunk per step (plus chunks they share) loaded when needed.
  const hosted = await esbuild.build({
    entryPoints: { app: at('web/main.js') },
    bundle: true, format: 'esm', minify: true, target: 'es2022', external: ['node:*'],
    splitting: true, outdir: dist.pathname, chunkNames: 'chunks/[name]-[hash]', metafile: true,
    define: { __POSENC_CORE_BASE__: '"./core/"', __POSENC_STEP_STYLES__: '"./steps/"' },
    logLevel: 'warning',
    plugins: [templates, atlas, pageWithoutReexport],
  });
  // The shared styles in app.css, each step's beside them, loaded with the step (web/app.js): the
  // first screen takes the styles of the step it shows, not of every step.
  await writeFile(new URL('app.css', dist), await cssOf(['web/styles.css']));
  await mkdir(new URL('steps/', dist), { recursive: true });
  for (const step of STEPS) await writeFile(new URL(`steps/${step.id}.css`, dist), await cssOf([step.style]));
  // The theme's blocking classic script (web/theme-early.js): beside index.html and lab.html.
  const early = await readFile(at('web/theme-early.js'), 'utf8');
  await writeFile(new URL('theme-early.js', dist), early);

  // Each step's chunk and the chunks it imports, app.js's own imports, for the preload hints.
  const out = hosted.metafile.outputs;
  const rel = (k) => k.replace(/^(.*\/)?dist\//, '');  // metafile paths are relative to the working directory
  const key = (name) => Object.keys(out).find((k) => rel(k) === name);
  const imported = (start) => {
    const seen = new Set();
    const follow = (k) => {
      if (seen.has(k)) return;
      seen.add(k);
      for (const i of out[k].imports) if (i.kind === 'import-statement') follow(i.path);
    };
    follow(start);
    return [...seen];
  };
  const appChunks = imported(key('app.js'));
  const stepChunks = Object.fromEntries(STEPS.map((step) => [step.id,
    imported(Object.keys(out).find((k) => out[k].entryPoint?.endsWith(`web/steps/${step.id}/${step.id}.js`)))]));
  const manifest = {
    first: STEPS[0].id,
    core: 'core/',
    styles: 'steps/',
    steps: Object.fromEntries(STEPS.map((step) => [step.id, {
      chunks: stepChunks[step.id].filter((k) => !appChunks.includes(k)).map(rel), parts: step.parts,
    }])),
  };
  await esbuild.build({
    entryPoints: [at('web/preload.js')],
    bundle: true, format: 'iife', minify: true, target: 'es2022', external: ['node:*'],
    // (i18n.js's fetchPart, which the hints do not use, reads import.meta.url.)
    define: { __POSENC_PRELOAD__: JSON.stringify(manifest), 'import.meta.url': 'document.baseURI' },
    outfile: new URL('preload.js', dist).pathname, logLevel: 'warning',
  });
  // app.js's own imports are the same for every step: named in the page itself.
  const appPreloads = appChunks.filter((k) => rel(k) !== 'app.js').map((k) => `\n  <link rel="modulepreload" href="${rel(k)}">`).join('');
  await writeFile(new URL('index.html', dist), pageHtml(html, {
    head: `\n  <link rel="stylesheet" href="app.css">\n  <script type="module" src="app.js"></script>${appPreloads}`,
    body: '',
  }).replace('<script src="web/theme-early.js"></script>', '<script src="theme-early.js"></script>\n  <script src="preload.js"></script>'));
  // The core's and the trainer's modules. Emscripten's glue comes out of emcc at -O3 only partly
  // minified: esbuild's minifier takes the core's from 11.9 to 9.1 KiB gzip, on the first screen.
  for (const f of await readdir(at('wasm/dist/'))) {
    if (!/^posenc-(train-)?(simd|scalar)\.(mjs|wasm)$/.test(f)) continue;
    if (f.endsWith('.wasm')) {
      await cp(at(`wasm/dist/${f}`), new URL(`core/${f}`, dist));
      continue;
    }
    const glue = await esbuild.transform(await readFile(at(`wasm/dist/${f}`), 'utf8'), { format: 'esm', minify: true, target: 'es2022' });
    await writeFile(new URL(`core/${f}`, dist), glue.code);
  }
  // The train step: its worker at the same place relative to app.js as in the source
  // (web/app.js → ./train/worker.js), and the reference run's data beside it.
  await esbuild.build({
    entryPoints: [at('web/train/worker.js')],
    bundle: true, format: 'esm', minify: true, target: 'es2022', external: ['node:*'],
    outfile: new URL('train/worker.js', dist).pathname, logLevel: 'warning',
  });
  await mkdir(new URL('data/', dist), { recursive: true });
  await cp(at('web/data/train-reference.json'), new URL('data/train-reference.json', dist));
  await cp(at('web/i18n/'), new URL('i18n/', dist), { recursive: true });
  await cp(at('web/examples/'), new URL('web/examples/', dist), { recursive: true });

  // The Lab (web/lab.html): a page of its own, dist/lab.html with its files in dist/lab/. The
  // explainer only links to it (nothing of it is fetched by index.html) and the single file
  // leaves it out.
  await esbuild.build({
    entryPoints: [at('web/lab.js')],
    bundle: true, format: 'esm', minify: true, target: 'es2022', external: ['node:*'],
    outfile: new URL('lab/lab.js', dist).pathname,
    define: { __POSENC_LAB_BASE__: '"./"', __POSENC_LAB_I18N__: '"../i18n/"', __POSENC_EXPLAINER__: '"index.html"' },
    logLevel: 'warning',
  });
  await cp(at('web/lab.css'), new URL('lab/lab.css', dist));
  // Both builds of the Lab: web/lab.js picks one with the loader's SIMD probe, as the core's.
  for (const v of ['simd', 'scalar']) {
    for (const ext of ['mjs', 'wasm']) await cp(at(`wasm/dist/posenc-lab-${v}.${ext}`), new URL(`lab/posenc-lab-${v}.${ext}`, dist));
  }
  const labHtml = (await readFile(at('web/lab.html'), 'utf8'))
    .replace('href="lab.css"', 'href="lab/lab.css"')
    .replace('src="lab.js"', 'src="lab/lab.js"')
    .replace('href="../index.html"', 'href="index.html"');
  await writeFile(new URL('lab.html', dist), labHtml);

  // The single file: a classic script (file:// blocks module scripts), hashes in its CSP.
  const all = await catalogs();
  const single = await esbuild.build({
    entryPoints: [at('web/single.js')],
    bundle: true, format: 'iife', minify: true, target: 'es2022', write: false, external: ['node:*'],
    loader: { '.wasm': 'binary' },
    // The Emscripten glue builds URLs from import.meta.url even when handed the wasm bytes; a
    // classic script has no import.meta, so it gets the page's own URL (nothing is fetched).
    // No Lab beside a single file: its links are left out (web/app.js reads this as null).
    define: { 'import.meta.url': 'document.baseURI', __POSENC_LAB_PAGE__: 'null' },
    logLevel: 'error',
    plugins: [templates, atlas, {
      name: 'catalogs',
      setup(build) {
        build.onResolve({ filter: /^posenc:catalogs$/ }, () => ({ path: 'catalogs', namespace: 'posenc' }));
        build.onLoad({ filter: /.*/, namespace: 'posenc' }, () => ({ contents: JSON.stringify(all), loader: 'json' }));
      },
    }],
  });
  // A "</script" inside the bundle would end the element early.
  const js = single.outputFiles[0].text.replace(/<\/script/gi, '<\\/script');
  // The theme's early script goes inline too, in <head> where index.html has it, with its own hash.
  const csp = `default-src 'none'; script-src ${sha256(early)} ${sha256(js)} 'wasm-unsafe-eval'; style-src ${sha256(css)}; img-src data:`;
  const singleHtml = pageHtml(html, { head: `\n  <style>${css}</style>`, body: `<script>${js}</script>\n` })
    .replace('<script src="web/theme-early.js"></script>', () => `<script>${early}</script>`)
    .replace(/<meta http-equiv="Content-Security-Policy" content="[^"]+">/, () => `<meta http-equiv="Content-Security-Policy" content="${csp}">`);
  await writeFile(new URL('positional-encoding.html', dist), singleHtml);

  // What the hosted explainer loads on a browser with SIMD: page, script, styles, catalogs, core.
  // Of the script, what the first step (order) needs: app.js, the step's chunk and the chunks
  // both import statically. The other steps' chunks and catalog parts follow after it shows.
  const first = STEPS[0].id;
  const firstParts = STEPS[0].parts;
  const scripts = new Set([...appChunks, ...stepChunks[first]]);
  const loaded = ['index.html', 'theme-early.js', 'preload.js', ...[...scripts].map(rel), 'app.css', `steps/${first}.css`, 'core/posenc-simd.mjs', 'core/posenc-simd.wasm',
    ...[...PAGE_PARTS, ...firstParts].map((p) => `i18n/en/${p}.json`)];
  let raw = 0;
  let gz = 0;
  const rows = [];
  for (const f of loaded) {
    const bytes = await readFile(new URL(f, dist));
    const z = gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gz += z;
    rows.push(`  ${f.padEnd(26)} ${String(bytes.length).padStart(8)} B  ${String(z).padStart(7)} B gzip`);
  }
  const singleBytes = Buffer.byteLength(singleHtml);
  console.log(`dist/: the hosted explainer's first screen loads ${(gz / 1024).toFixed(1)} KiB gzip (${(raw / 1024).toFixed(1)} KiB raw):`);
  console.log(rows.join('\n'));
  console.log(`dist/positional-encoding.html: ${(singleBytes / 1024).toFixed(1)} KiB, ${(gzipSync(singleHtml, { level: 9 }).length / 1024).toFixed(1)} KiB gzip`);
}

await main();
