// The markup the site ships obeys the strict CSP by construction: no inline scripts, no event
// handler attributes, no <style> blocks, no style="" attributes; and only relative URLs.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

const FILES = ['index.html', 'web/examples/course.html'];

for (const file of FILES) {
  test(`${file} has no inline script, handler attribute, style block or style attribute`, async () => {
    const html = await readFile(new URL(`../../${file}`, import.meta.url), 'utf8');
    for (const [, attrs, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
      assert.match(attrs, /\bsrc=/, 'every script is an external file');
      assert.equal(body.trim(), '', 'no inline script body');
    }
    assert.doesNotMatch(html, /<style\b/i);
    assert.doesNotMatch(html, /\sstyle=/i);
    assert.doesNotMatch(html, /\son[a-z]+=/i);
  });

  test(`${file} refers to its own files by relative URLs only`, async () => {
    const html = await readFile(new URL(`../../${file}`, import.meta.url), 'utf8');
    for (const [, url] of html.matchAll(/\s(?:src|href)="([^"]+)"/g)) {
      assert.ok(!/^(?:[a-z]+:)?\/\//i.test(url) && !url.startsWith('/'), `${file}: ${url}`);
    }
  });
}
