// The figure registry (web/kit/figures.js): what a step's mount registers is what the page gets,
// in order, and nothing registered outside a collection lands in one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectFigures, registerFigure } from '../../web/kit/figures.js';

// Stand-ins for elements: the registry only keeps them, it never looks inside.
const el = (name) => ({ name });

test('the figures registered during build come back in registration order, with their options', () => {
  const a = el('a');
  const b = el('b');
  const holder = el('holder');
  const parts = () => [b];
  const { result, figures } = collectFigures(() => {
    registerFigure(a);
    registerFigure(b, { parts, holder });
    return 'the api';
  });
  assert.equal(result, 'the api');
  assert.equal(figures.length, 2);
  assert.equal(figures[0].element, a);
  assert.deepEqual(figures[0].parts, [a]);  // by default a figure is its own picture
  assert.equal(figures[0].holder, undefined);
  assert.equal(figures[1].element, b);
  assert.equal(figures[1].parts, parts);
  assert.equal(figures[1].holder, holder);
});

test('a figure made outside any collection (after its step mounted) is not collected later', () => {
  registerFigure(el('late'));
  const { figures } = collectFigures(() => {});
  assert.deepEqual(figures, []);
});

test('collections nest: an inner one keeps its figures, the outer one goes on collecting after it', () => {
  const { figures: outer } = collectFigures(() => {
    registerFigure(el('before'));
    const { figures: inner } = collectFigures(() => registerFigure(el('inside')));
    assert.deepEqual(inner.map((f) => f.element.name), ['inside']);
    registerFigure(el('after'));
  });
  assert.deepEqual(outer.map((f) => f.element.name), ['before', 'after']);
});

test('a build that throws ends its collection: later figures go nowhere', () => {
  assert.throws(() => collectFigures(() => {
    registerFigure(el('half-built'));
    throw new Error('mount failed');
  }), /mount failed/);
  registerFigure(el('stray'));
  const { figures } = collectFigures(() => registerFigure(el('next')));
  assert.deepEqual(figures.map((f) => f.element.name), ['next']);
});
