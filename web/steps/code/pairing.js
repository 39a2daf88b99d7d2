// The same q and k under the two RoPE pairings, scored by the core: neighbours (2i, 2i + 1), as
// RoFormer, GPT-J and Meta's Llama code pair them and the RoPE step does; Hugging Face's
// rotate_half (i, i + d/2) fed the same raw vectors; and rotate_half again after the permutation
// that Hugging Face's Llama conversion script applies to the rows of W_q and W_k. q = k = (0.6,
// 0.4) in each of four pairs, as on the RoPE step; the positions are the code step's m and n.
import { h } from '../../kit/dom.js';

const D = 8;
const PAIR = [0.6, 0.4];
const Q = Float32Array.from({ length: D }, (_, j) => PAIR[j % 2]);
const DOT = { softmax: false, scale: 1 };
const LAYOUTS = ['interleaved', 'half', 'permuted'];

/**
 * x reordered from the neighbour layout into rotate_half's: dimension 2i goes to i and 2i + 1 to
 * i + d/2, which is what HF's Llama conversion script does to the rows of W_q and W_k.
 */
export function toHalfLayout(x) {
  const half = x.length / 2;
  return Float32Array.from(x, (_, j) => (j < half ? x[2 * j] : x[2 * (j - half) + 1]));
}

/** The table and its note; update(m, n) scores the three rows at query m and key n. */
export function pairingTable(core, m) {
  const cells = Object.fromEntries(LAYOUTS.map((key) => [key, h('td', { 'data-readout': `pairing-${key}` })]));
  const caption = h('caption', {});
  const el = h('div', { class: 'code-pairing-box table-scroller' },
    h('table', { class: 'code-pairing' }, caption,
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, m.t('code.pairingColPairs')),
        h('th', { scope: 'col' }, m.t('code.pairingColScore')))),
      h('tbody', {}, LAYOUTS.map((key) => h('tr', { 'data-layout': key },
        h('th', { scope: 'row' }, m.t(`code.pairing.${key}`)), cells[key])))),
    h('p', { class: 'code-pairing-note' }, m.t('code.pairingNote')));
  const score = (layout, q, k, qpos, kpos) => core.attention(
    core.ropeApply(q, [qpos], D, { layout }), core.ropeApply(k, [kpos], D, { layout }), D, DOT)[0];
  return {
    el,
    update(qpos, kpos) {
      const scored = {
        interleaved: score('interleaved', Q, Q, qpos, kpos),
        half: score('half', Q, Q, qpos, kpos),
        permuted: score('half', toHalfLayout(Q), toHalfLayout(Q), qpos, kpos),
      };
      for (const key of LAYOUTS) {
        cells[key].textContent = m.fixed(scored[key], 4);
        cells[key].dataset.value = String(scored[key]);
      }
      caption.textContent = m.t('code.pairingCaption', { m: qpos, n: kpos });
    },
  };
}
