// The same q and k under the two RoPE pairings, scored by the core (model.js): neighbours (2i, 2i + 1), as
// RoFormer, GPT-J and Meta's Llama code pair them and the RoPE step does; Hugging Face's
// rotate_half (i, i + d/2) fed the same raw vectors; and rotate_half again after the permutation
// that Hugging Face's Llama conversion script applies to the rows of W_q and W_k. q = k = (0.6,
// 0.4) in each of four pairs, as on the RoPE step; the positions are the code step's m and n.
import { h } from '../../kit/dom.js';

const LAYOUTS = ['interleaved', 'half', 'permuted'];

/** The table and its note; update(scored, m, n) shows the three scores (model.js) at query m and key n. */
export function pairingTable(m) {
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
  return {
    el,
    update(scored, qpos, kpos) {
      for (const key of LAYOUTS) {
        cells[key].textContent = m.fixed(scored[key], 4);
        cells[key].dataset.value = String(scored[key]);
      }
      caption.textContent = m.t('code.pairingCaption', { m: qpos, n: kpos });
    },
  };
}
