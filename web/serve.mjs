// A small static server for the explainer: 127.0.0.1 only, correct MIME types (application/wasm
// matters for streaming compilation), the strict CSP the page is meant to run under, and gzip
// for a browser that asks for it, as a static host gives it (what a page costs over a slow
// connection is its compressed bytes).
// Usage: node web/serve.mjs [--root DIR] [--prefix /sub/path/] [--port N]
//   --root    the folder to serve (default: the repository, i.e. the page from source)
//   --prefix  the URL path the site lives under, as on a static host's subfolder (default /)
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';

const gzip = promisify(gzipCallback);

const REPO = resolve(fileURLToPath(new URL('..', import.meta.url)));
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.py': 'text/x-python; charset=utf-8',  // step "code"'s program templates
};
// Already compressed: sent as they are.
const STORED = new Set(['.png', '.ico']);

/** Whether an Accept-Encoding header takes gzip (named with a q above 0, or through *). */
export function acceptsGzip(header = '') {
  let star = false;
  for (const part of String(header).toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';').map((t) => t.trim());
    const q = params.find((t) => t.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (name === 'gzip') return weight > 0;
    if (name === '*') star = weight > 0;
  }
  return star;
}

// Each file's gzip bytes, made once per version of the file (its validator).
const compressed = new Map();  // file → { etag, bytes }
async function gzipped(file, etag) {
  const kept = compressed.get(file);
  if (kept?.etag === etag) return kept.bytes;
  const bytes = await gzip(await readFile(file), { level: 9 });
  compressed.set(file, { etag, bytes });
  return bytes;
}

export const CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:";

async function handle(req, res, root, prefix, maxAge) {
  const url = new URL(req.url, 'http://localhost');
  let path;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    res.writeHead(400).end('bad request');
    return;
  }
  if (!path.startsWith(prefix)) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  path = '/' + path.slice(prefix.length);
  if (path.endsWith('/')) path += 'index.html';
  const file = normalize(join(root, path));
  if (file !== root && !file.startsWith(root + sep)) {
    res.writeHead(403).end('forbidden');
    return;
  }
  let info;
  try {
    info = await stat(file);
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  if (info.isDirectory()) {
    res.writeHead(301, { location: url.pathname + '/' }).end();
    return;
  }
  // no-cache: the browser asks every time, so an edited file is seen at once; the validator lets
  // it keep what it has when nothing changed (304), and Chromium can then reuse the code V8 cached
  // with that response (script and WebAssembly code caches) instead of compiling it again.
  // With maxAge (the tests, whose files do not change while they run), everything but .html pages
  // is reused without asking for that long: from source a page is about 175 files, and
  // revalidating each on every repeat load was about half of that load's CPU (all processes).
  const etag = `W/"${info.size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}"`;
  const headers = {
    'content-security-policy': CSP,
    'x-content-type-options': 'nosniff',
    'cache-control': maxAge > 0 && extname(file) !== '.html' ? `max-age=${maxAge}` : 'no-cache',
    etag,
    vary: 'accept-encoding',
  };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers).end();
    return;
  }
  const type = TYPES[extname(file)] ?? 'application/octet-stream';
  if (!STORED.has(extname(file)) && acceptsGzip(req.headers['accept-encoding'])) {
    const bytes = await gzipped(file, etag);
    res.writeHead(200, { ...headers, 'content-type': type, 'content-encoding': 'gzip', 'content-length': bytes.length });
    res.end(req.method === 'HEAD' ? undefined : bytes);
    return;
  }
  res.writeHead(200, { ...headers, 'content-type': type, 'content-length': info.size });
  if (req.method === 'HEAD') res.end();
  else createReadStream(file).pipe(res);
}

/**
 * Starts the server; resolves to { url, close }. Port 0 picks a free port. maxAge (whole seconds,
 * 0 to 2^31; default 0: ask every time): how long a browser may reuse a file other than an .html
 * page without asking. A bad maxAge throws at once rather than rejecting the promise.
 */
export function serve({ port = 0, host = '127.0.0.1', root = REPO, prefix = '/', maxAge = 0 } = {}) {
  if (!Number.isInteger(maxAge) || maxAge < 0 || maxAge > 2 ** 31) {
    const shown = typeof maxAge === 'string' ? JSON.stringify(maxAge) : String(maxAge);
    throw new RangeError(`serve: maxAge must be a whole number of seconds from 0 to ${2 ** 31}, not ${shown}`);
  }
  const dir = resolve(root);
  const mount = prefix.endsWith('/') ? prefix : `${prefix}/`;
  return new Promise((resolvePromise, reject) => {
    const server = createServer((req, res) => {
      handle(req, res, dir, mount, maxAge).catch(() => res.writeHead(500).end());
    });
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      resolvePromise({
        url: `http://${host}:${actual}${mount}`,
        close: () => new Promise((r) => server.close(r)),
      });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const options = { root: resolve(arg('--root', REPO)), prefix: arg('--prefix', '/') };
  const wanted = Number(arg('--port', process.env.PORT ?? 8080));
  let server;
  try {
    server = await serve({ ...options, port: wanted });
  } catch (e) {
    if (e.code !== 'EADDRINUSE') throw e;
    server = await serve({ ...options, port: 0 });  // the usual port is taken: any free one will do
  }
  console.log(`Positional encoding explainer: ${server.url}`);
  console.log('Press Ctrl+C to stop.');
}
