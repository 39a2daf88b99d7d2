// The static server (web/serve.mjs) that `npm start` and the browser tests use: MIME types, the
// strict CSP on every file, revalidation (a 304 while a file is unchanged, the new file once it
// changed), gzip when the browser asks for it, and nothing served outside its folder or its
// prefix.
import assert from 'node:assert/strict';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { CSP, acceptsGzip, serve } from '../../web/serve.mjs';

let dir;
let server;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'posenc-serve-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>t</title>');
  await writeFile(join(dir, 'm.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  server = await serve({ root: dir, prefix: '/sub/' });
});
after(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const get = (path, headers = {}) => fetch(new URL(path, server.url), { headers, redirect: 'manual' });

test('files come with their MIME type, the strict CSP and a validator; a folder gives its index.html', async () => {
  const wasm = await get('m.wasm');
  assert.equal(wasm.status, 200);
  assert.equal(wasm.headers.get('content-type'), 'application/wasm');
  assert.equal(wasm.headers.get('content-security-policy'), CSP);
  assert.equal(wasm.headers.get('cache-control'), 'no-cache');
  assert.match(wasm.headers.get('etag'), /^W\/"[0-9a-z]+-[0-9a-z]+"$/);
  assert.equal((await wasm.arrayBuffer()).byteLength, 8);
  const index = await get('');
  assert.equal(index.status, 200);
  assert.equal(index.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.match(await index.text(), /<title>t<\/title>/);
});

test('an unchanged file revalidates with a 304 and no body; a changed one is sent again with a new validator', async () => {
  const first = await get('index.html');
  const etag = first.headers.get('etag');
  await first.text();
  const again = await get('index.html', { 'if-none-match': etag });
  assert.equal(again.status, 304);
  assert.equal(again.headers.get('etag'), etag);
  assert.equal(again.headers.get('content-security-policy'), CSP);
  assert.equal(await again.text(), '');
  // The same size, a later modification time: still a different file.
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>u</title>');
  const later = new Date(Date.now() + 5000);
  await utimes(join(dir, 'index.html'), later, later);
  const changed = await get('index.html', { 'if-none-match': etag });
  assert.equal(changed.status, 200);
  assert.notEqual(changed.headers.get('etag'), etag);
  assert.match(await changed.text(), /<title>u<\/title>/);
});

test('nothing outside the prefix or the folder is served', async () => {
  const outside = await fetch(new URL('/index.html', server.url));
  assert.equal(outside.status, 404);
  for (const path of ['%2e%2e/%2e%2e/etc/passwd', '..%2f..%2fetc%2fpasswd', '%E0%A4%A']) {
    const res = await get(path);
    assert.ok([400, 403, 404].includes(res.status), `${path}: ${res.status}`);
    await res.text();
  }
  assert.equal((await get('missing.js')).status, 404);
});

test('with maxAge, every file but a page may be reused for that long; a bad maxAge is refused by name', async () => {
  const cached = await serve({ root: dir, prefix: '/sub/', maxAge: 120 });
  try {
    const at = (path) => fetch(new URL(path, cached.url)).then(async (r) => { await r.arrayBuffer(); return r.headers.get('cache-control'); });
    assert.equal(await at('m.wasm'), 'max-age=120');
    assert.equal(await at('index.html'), 'no-cache');
    assert.equal(await at(''), 'no-cache');
  } finally {
    await cached.close();
  }
  for (const bad of [-1, 1.5, '60', NaN, 1e21]) {
    assert.throws(() => serve({ root: dir, maxAge: bad }), (e) => e instanceof RangeError && /maxAge/.test(e.message), String(bad));
  }
});

/** A raw GET (fetch would decompress the body and hide the encoding): { headers, body }. */
const raw = (path, headers = {}) => new Promise((resolve, reject) => {
  request(new URL(path, server.url), { headers }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
  }).on('error', reject).end();
});

test('a browser that takes gzip gets the file gzipped, with its length and Vary; one that does not gets it as it is', async () => {
  const text = `<!doctype html><title>t</title>${'<p>position</p>'.repeat(200)}`;
  await writeFile(join(dir, 'long.html'), text);
  const zipped = await raw('long.html', { 'accept-encoding': 'br, gzip, deflate' });
  assert.equal(zipped.headers['content-encoding'], 'gzip');
  assert.equal(zipped.headers.vary, 'accept-encoding');
  assert.equal(Number(zipped.headers['content-length']), zipped.body.length);
  assert.ok(zipped.body.length < text.length / 4, `${zipped.body.length} bytes gzipped of ${text.length}`);
  assert.equal(gunzipSync(zipped.body).toString(), text);
  const plain = await raw('long.html');
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(plain.body.toString(), text);
  // A changed file is compressed again, not served from the bytes made for its old version.
  await writeFile(join(dir, 'long.html'), `${text}<p>more</p>`);
  await utimes(join(dir, 'long.html'), new Date(), new Date(Date.now() + 5000));
  assert.equal(gunzipSync((await raw('long.html', { 'accept-encoding': 'gzip' })).body).toString(), `${text}<p>more</p>`);
});

test('Accept-Encoding is read as RFC 9110 says: a q of 0 refuses gzip, * takes it', () => {
  assert.equal(acceptsGzip('gzip'), true);
  assert.equal(acceptsGzip('deflate, gzip;q=0.5'), true);
  assert.equal(acceptsGzip('gzip;q=0'), false);
  assert.equal(acceptsGzip('br'), false);
  assert.equal(acceptsGzip('*'), true);
  assert.equal(acceptsGzip('*;q=0'), false);
  assert.equal(acceptsGzip('gzip;q=0, *'), false);
  assert.equal(acceptsGzip(''), false);
  assert.equal(acceptsGzip(undefined), false);
});
