// How a token id reads on the page. The trainer's vocabulary (core/train/tasks.hpp, Vocabulary):
// ids 0..S-1 are the symbols (the keys, in retrieval), then S values in retrieval only, then
// BOS, SEP, EOS. Symbols read as letters (a..z, then A..Z, then α..ω), values as numbers, the
// three specials as ⟨bos⟩ ⟨sep⟩ ⟨eos⟩.
const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZαβγδεζηθικλμνξοπρστυφχψω';

/** The vocabulary of a resolved config: { symbols, values, bos, sep, eos, size }. */
export function vocabulary(config) {
  const symbols = config.symbols;
  const values = config.task === 'retrieval' ? symbols : 0;
  const bos = symbols + values;
  return { symbols, values, bos, sep: bos + 1, eos: bos + 2, size: bos + 3 };
}

/** The label of token `id` under `vocab`; '?' for an id outside it. */
export function tokenLabel(id, vocab) {
  if (id < 0 || id >= vocab.size) return '?';
  if (id === vocab.bos) return '⟨bos⟩';
  if (id === vocab.sep) return '⟨sep⟩';
  if (id === vocab.eos) return '⟨eos⟩';
  if (id < vocab.symbols) return LETTERS[id] ?? `s${id}`;
  return String(id - vocab.symbols);
}

/** 'symbol' | 'value' | 'special': what kind of token an id is (for styling). */
export function tokenKind(id, vocab) {
  if (id >= vocab.bos) return 'special';
  return id < vocab.symbols ? 'symbol' : 'value';
}
