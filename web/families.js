// The position families as the page shows them: the registry's names (core/families/registry.hpp,
// through wasm/train.js, which a test holds to the module) and, per family, what only the page
// needs. Their words are in the catalog part families.json: families.<name> (the short name),
// .long (the Lab's label), .formula (the attention score read aloud) and, for the families the
// choose step's table compares, .where, .extrapolation, .params and .usedBy (its columns); a
// family may add a paragraph to the attention step's notes (.attention). Every value is one string:
// the Lab reads this part too, and its catalogs hold strings only.
//
// Adding a family: its struct in core/families/ and its line in the registry (which the build
// turns into wasm/families.gen.js, the list every page and API list comes from), its words in
// families.json (four languages), its colour in web/steps/train/train.css and its reference maths in
// tests/train/torch_reference.py. A family the attention step draws (kFigure) also needs its
// entry here and its drawing in the Lab.
import { FAMILY_REGISTRY } from '../wasm/families.gen.js';
import { ATTENTION_FAMILIES } from '../wasm/train.js';

export const FAMILIES = ATTENTION_FAMILIES;  // the families the attention step and the Lab draw
// What the registry says of each (core/families/registry.hpp): perHead (the attention step then
// shows a head slider), readsTable (familyAttention reads the learned stand-in table).
const FACTS = new Map(FAMILY_REGISTRY.map((f) => [f.name, f]));

// Per family:
//   step   the explainer's step that explains it (the Lab's way back to the page)
//   compared false for a family the choose step's table leaves out (NoPE: it adds nothing to compare)
//   score  (f) => the right-hand side of the attention step's score s_ij, from the parts in f:
//          content (a_i · b_j / √d), over(...num) (a fraction over √d), sub(name, index),
//          plus(content, table, index) ((a_i + P(i))), turned(R, x, index) ((R_i x_i)), slope
//          (the ALiBi head's slope, as MathML) and the MathML makers mi, mo, mn, mrow
const FAMILY = {
  none: { step: 'nope', compared: false, score: (f) => [f.content] },
  sinusoidal: {
    step: 'sinusoidal',
    score: (f) => [f.over(f.plus('a', 'PE', 'i'), f.mo('·'), f.plus('b', 'PE', 'j'))],
  },
  learned: {
    step: 'learned',
    score: (f) => [f.over(f.plus('a', 'L', 'i'), f.mo('·'), f.plus('b', 'L', 'j'))],
  },
  t5: {
    step: 'relative-bias',
    score: (f) => [f.content, f.mo('+'), f.mi('β'), f.mo('('), f.mi('bucket'), f.mo('('), f.mi('j'), f.mo('−'), f.mi('i'),
      f.mo(')'), f.mo(')')],
  },
  rope: {
    step: 'rope',
    score: (f) => [f.over(f.turned('R', 'a', 'i'), f.mo('·'), f.turned('R', 'b', 'j'))],
  },
  'partial-rope': {
    step: 'rope',
    score: (f) => [f.over(f.turned('R′', 'a', 'i'), f.mo('·'), f.turned('R′', 'b', 'j'))],
  },
  alibi: {
    step: 'alibi',
    score: (f) => [f.content, f.mo('−'), f.slope, f.mo('·'), f.mo('|'), f.mi('i'), f.mo('−'), f.mi('j'), f.mo('|')],
  },
};

for (const name of FAMILIES) if (!FAMILY[name]) throw new Error(`web/families.js has no entry for the family '${name}'`);

/** The family's short name in the page's language. */
export const familyName = (m, name) => m.t(`families.${name}`);

/** The explainer's step that explains the family. */
export const familyStep = (name) => FAMILY[name]?.step;

/** Do the family's heads differ (ALiBi's slopes)? */
export const familyPerHead = (name) => FACTS.get(name)?.perHead === true;

/** The families the choose step's table compares, in the registry's order. */
export const COMPARED = FAMILIES.filter((name) => FAMILY[name].compared !== false);

/** Does familyAttention read the learned stand-in table for the family? */
export const familyReadsTable = (name) => FACTS.get(name)?.readsTable === true;

/** The right-hand side of the family's attention score (see FAMILY). */
export const familyScore = (name, parts) => FAMILY[name].score(parts);
