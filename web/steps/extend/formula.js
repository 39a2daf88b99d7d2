// Step "extend": its number texts and each method's rule in MathML.
import { h } from '../../kit/dom.js';
import { math, mfrac, mi, mn, mo, mrow, msub, msup, primed } from '../../kit/math.js';
import { powerOfTen } from '../../kit/scripts.js';
import { BETA_FAST, D, HIGH_FF, LOW_FF } from './setup.js';

/** The step's number formats in the page's locale. */
export function extendFormats(m) {
  const int = (v) => m.fixed(v, 0);
  // Four significant digits; below 0.001 as a power of ten (θ reaches 1e-9 for the slow pairs).
  const sig = (v) => {
    if (v === 0) return m.fixed(0, 0);
    const e = Math.floor(Math.log10(Math.abs(v)));
    if (e >= -3) return m.fixed(v, Math.max(0, 3 - e));
    const mant = v / 10 ** e;
    return `${m.fixed(mant, 3)} · ${powerOfTen(e)}`;
  };
  const wave = (v) => m.fixed(v, v < 100 ? 1 : 0);
  const score = (v) => m.fixed(v, 2);
  const decade = (v) => {
    const k = Math.round(Math.log10(v));
    return k <= 2 ? int(v) : powerOfTen(k);
  };
  return { int, sig, wave, score, decade };
}

const th = (prime, sub = mi('i')) => msub(prime ? primed('θ') : mi('θ'), sub);
const lam = (sub = mi('i')) => msub(mi('λ'), sub);

/** The method's rule in MathML, one block per formula or sentence (none depends on the pair). */
export function methodRules(m, method, { base, L, factor, read, attention }) {
  const { int } = extendFormats(m);
  const paren = (...c) => mrow(mo('('), ...c, mo(')'));
  const clamp = (...c) => mrow(mi('clamp'), paren(...c, mo(','), mn('0'), mo(','), mn('1')));
  const vars = { base: int(base), L: int(L), s: factor, k: read, d: D, beta: BETA_FAST, low: LOW_FF, high: HIGH_FF, a: m.fixed(attention, 4) };
  const plainRule = math(m.t('extend.formulaPlain', vars),
    th(false), mo('='), msup(mn(int(base)), mrow(mo('−'), mn('2'), mi('i'), mo('/'), mn(String(D)))),
    mo(','), lam(), mo('='), mfrac(mrow(mn('2'), mi('π')), th(false)));
  const rules = {
    none: () => [],
    linear: () => [math(m.t('extend.formulaLinear', vars),
      th(true), mo('='), mfrac(th(false), mn(String(factor))))],
    ntk: () => [
      math(m.t('extend.formulaNtk', vars),
        primed('b'), mo('='), mn(int(base)), mo('·'), msup(mn(String(factor)), mfrac(mn(String(D)), mn(String(D - 2)))),
        mo(','), th(true), mo('='), msup(primed('b'), mrow(mo('−'), mn('2'), mi('i'), mo('/'), mn(String(D))))),
    ],
    dynamic: () => [math(m.t('extend.formulaDynamic', vars),
      primed('b'), mo('='), mn(int(base)), mo('·'),
      msup(paren(mn(String(factor)), mo('·'), mn(String(read)), mo('−'), mn(String(factor)), mo('+'), mn('1')),
        mfrac(mn(String(D)), mn(String(D - 2)))),
      mo(','), th(true), mo('='), msup(primed('b'), mrow(mo('−'), mn('2'), mi('i'), mo('/'), mn(String(D)))))],
    yarn: () => [
      math(m.t('extend.formulaYarn', vars),
        th(true), mo('='), paren(mn('1'), mo('−'), msub(mi('γ'), mi('i'))), th(false), mo('+'),
        msub(mi('γ'), mi('i')), mfrac(th(false), mn(String(factor)))),
      math(m.t('extend.formulaYarnFactor', vars),
        mi('a'), mo('='), mn(m.fixed(0.1, 1)), mo('·'), mi('ln'), mo('\u2061'), mn(String(factor)), mo('+'), mn('1'),
        mo('='), mn(m.fixed(attention, 4))),
      h('p', { class: 'extend-rule' }, m.t('extend.ruleYarn', { ...vars, fast: int(L / BETA_FAST) })),
    ],
    llama3: () => [
      math(m.t('extend.formulaLlama3', vars),
        th(true), mo('='), paren(mn('1'), mo('−'), msub(mi('σ'), mi('i'))), mfrac(th(false), mn(String(factor))), mo('+'),
        msub(mi('σ'), mi('i')), th(false)),
      math(m.t('extend.formulaLlama3Sigma', vars),
        msub(mi('σ'), mi('i')), mo('='), clamp(mfrac(mrow(mfrac(mn(int(L)), lam()), mo('−'), mn(String(LOW_FF))), mrow(mn(String(HIGH_FF)), mo('−'), mn(String(LOW_FF)))))),
      h('p', { class: 'extend-rule' }, m.t('extend.ruleLlama3', vars)),
    ],
  };
  return [plainRule, ...rules[method]()].map((f) => h('div', {}, f));
}

/** The chosen pair with the current numbers, in two halves that wrap onto two lines on a phone. */
export function pairNow(m, { pair, theta, scaled, ratio, lambda, plainLambda }) {
  const { sig, wave } = extendFormats(m);
  const i = () => mn(String(pair));  // a fresh node for every place it appears
  const nowVars = { pair, plain: wave(plainLambda), theta: sig(theta), scaled: sig(scaled), ratio: sig(ratio), wavelength: wave(lambda) };
  return h('div', {}, h('span', { class: 'extend-now' },
    math(m.t('extend.formulaNow', nowVars),
      lam(i()), mo('='), mn(wave(plainLambda)), mo(','), th(false, i()), mo('='), mn(sig(theta)), mo('→')),
    math(m.t('extend.formulaNowScaled', nowVars),
      th(true, i()), mo('='), mn(sig(scaled)), mo('='), mn(sig(ratio)), mo('·'), th(false, i()))));
}
