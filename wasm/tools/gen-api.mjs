// Writes what wasm/schema.js determines: the Posenc interface in wasm/posenc.d.ts, the API table
// in docs/api.md (each between its markers), wasm/bindings/api.gen.hpp (names, ranges and
// defaults for the bindings) and wasm/lab/palette.gen.hpp (the page's colour stops, from
// web/kit/palette.js, for the Lab). `--check` writes nothing and exits 1 naming every file that is
// not current (tests/js/schema.test.js runs the same comparison).
//
//   node wasm/tools/gen-api.mjs [--check]

import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

import { DIVERGING_STOPS, SEQUENTIAL_STOPS } from '../../web/kit/palette.js';
import { API, JS_API, LIMITS, ROPE_SCALINGS } from '../schema.js';
import { TRAIN_FAMILIES } from '../train.js';

const root = new URL('../../', import.meta.url);

// [NUMBERS] -----------------------------------------------------------------------------------
/** A bound as the docs write it: powers of two as 2^k, 2^k − 1 spelled out, 1e12 not 1000000000000. */
export function show(v) {
  if (typeof v !== 'number') return String(v);
  if (v < 0) return `−${show(-v).replace(/^(.* − .*)$/, '($1)')}`;
  const k = Math.log2(v);
  if (v >= 2 ** 16 && Number.isInteger(k)) return `2^${k}`;
  const k1 = Math.log2(v + 1);
  if (v >= 2 ** 16 && Number.isInteger(k1)) return `2^${k1} − 1`;
  if (v >= 1e6 && Number.isInteger(Math.log10(v))) return `1e${Math.log10(v)}`;
  return String(v);
}

/** "integer in [1, 8192], even" and the like: a field's kind and range, for people. */
export function rangeText(f) {
  const parts = [];
  if (f.type === 'int' || f.type === 'number') {
    const lo = f.exclusiveMin ? '(' : '[';
    parts.push(`${f.type === 'int' ? 'integer' : 'number'} in ${lo}${show(f.min)}, ${show(f.max)}]`);
    if (f.even) parts.push('even');
    if (f.multipleOf) parts.push(`a multiple of ${f.multipleOf}`);
  } else if (f.type === 'string') {
    parts.push(f.oneOf.map((v) => `'${v}'`).join(' | '));
  } else if (f.type === 'bool') {
    parts.push('boolean');
  } else if (f.type === 'positions') {
    parts.push(`a count or ≤ ${show(f.maxLength)} positions`);
  } else if (f.type === 'numbers' || f.type === 'floats') {
    parts.push(`≤ ${show(f.maxLength)} numbers`);
  } else if (f.type === 'scaling') {
    parts.push('RopeScaling');
  } else if (f.type === 'config') {
    parts.push('an object');
  } else if (f.type === 'posenc') {
    parts.push('a loaded Posenc');
  }
  if (f.nullable) parts.push('or null');
  return parts.join(', ');
}

/** A default as the docs write it: a string option's in quotes, a computed one ('1/√dim') as is. */
function defaultText(f) {
  if (f.type === 'string') return `'${f.default}'`;
  return String(f.default);
}

// [TYPESCRIPT] --------------------------------------------------------------------------------
function tsType(f) {
  const t = {
    int: 'number', number: 'number', bool: 'boolean', positions: 'Positions', numbers: 'NumberArray',
    floats: 'NumberArray', scaling: 'RopeScaling', config: 'HfConfig', posenc: 'Posenc',
  }[f.type] ?? (f.oneOf ? f.oneOf.map((v) => `'${v}'`).join(' | ') : 'string');
  return f.nullable ? `${t} | null` : t;
}

function fieldDoc(f) {
  const bits = [f.doc, rangeText(f)];
  if (f.default !== undefined) bits.push(`default ${defaultText(f)}`);
  return bits.filter(Boolean).join('; ');
}

function tsOptions(options, indent) {
  const lines = Object.entries(options).map(([key, f]) => `${indent}  /** ${fieldDoc(f)}. */\n${indent}  ${key}${f.required ? '' : '?'}: ${tsType(f)};`);
  return `{\n${lines.join('\n')}\n${indent}}`;
}

export function dtsBlock() {
  const out = [];
  out.push('/** options.scaling: HF\'s rope_scaling in camelCase, one shape per type. */');
  out.push('export type RopeScaling =');
  for (const [type, s] of Object.entries(ROPE_SCALINGS)) {
    const fields = Object.entries(s.fields).map(([key, f]) => `    /** ${fieldDoc(f)}. */\n    ${key}${f.required ? '' : '?'}: ${tsType(f)};`);
    out.push(`  /** ${s.doc}. */`);
    out.push(`  | {\n    type: '${type}';${fields.length ? `\n${fields.join('\n')}` : ''}\n  }`);
  }
  out[out.length - 1] += ';';
  out.push('');
  out.push('export interface Posenc {');
  out.push('  /** Which module runs: true for the WebAssembly SIMD build, false for the scalar one. */');
  out.push('  readonly simd: boolean;');
  const signature = (spec, indent) => {
    const params = spec.args.map((a) => `${indent}  /** ${a.doc}; ${rangeText(a)}. */\n${indent}  ${a.name}: ${tsType(a)},`);
    if (spec.options) params.push(`${indent}  options?: ${tsOptions(spec.options, `${indent}  `)},`);
    return `(\n${params.join('\n')}\n${indent}): ${spec.returns};`;
  };
  for (const [name, spec] of Object.entries(API)) {
    out.push(`  /** ${spec.doc} */`);
    out.push(`  ${name}${signature(spec, '  ')}`);
  }
  out.push('}');
  // The JS functions: exported beside loadPosenc, the loaded Posenc first.
  for (const [name, spec] of Object.entries(JS_API)) {
    out.push('');
    out.push(`/** ${spec.doc} */`);
    out.push(`export function ${name}${signature(spec, '')}`);
  }
  return out.join('\n');
}

// [API TABLE] ---------------------------------------------------------------------------------
const md = (s) => s.replace(/\|/g, '\\|');

export function readmeBlock() {
  const rows = ['| function | arguments | returns |', '|---|---|---|'];
  for (const [name, spec] of Object.entries({ ...API, ...JS_API })) {
    const opts = spec.options
      ? `, { ${Object.entries(spec.options).map(([k, f]) => (f.default === undefined ? k : `${k} = ${defaultText(f)}`)).join(', ')} }`
      : '';
    const signature = `\`${name}(${spec.args.map((a) => a.name).join(', ')}${opts})\``;
    const fields = [
      ...spec.args.map((a) => `\`${a.name}\`: ${rangeText(a)}`),
      ...Object.entries(spec.options ?? {}).map(([k, f]) => `\`${k}\`: ${rangeText(f)}`),
    ];
    rows.push(`| ${signature} | ${md(fields.join('; '))} | \`${md(spec.returns)}\`: ${md(spec.doc)} |`);
  }
  const scalings = Object.entries(ROPE_SCALINGS).map(([type, s]) => {
    const fields = Object.entries(s.fields).map(([k, f]) => (f.required ? `\`${k}\`` : f.default === undefined ? `\`${k}?\`` : `\`${k} = ${defaultText(f)}\``));
    return `| \`${type}\` | ${fields.join(', ') || '—'} | ${md(s.doc)} |`;
  });
  return [...rows, '', '`options.scaling` (RoPE) by `type`:', '', '| type | fields | what it does |', '|---|---|---|', ...scalings].join('\n');
}

// [C++] ---------------------------------------------------------------------------------------
const cpp = (v) => (Number.isInteger(v) ? `${v}.0` : String(v));

function cppField(f, name, key, label) {
  if (key === undefined) {  // a positional argument
    if (f.type === 'int' || f.type === 'number') return `inline constexpr Bounded ${name}{"${f.name}", ${cpp(f.min)}, ${cpp(f.max)}};`;
    return `inline constexpr Named ${name}{"${f.name}"};`;
  }
  const computed = typeof f.default === 'string' && f.type !== 'string';
  if ((f.type === 'int' || f.type === 'number') && !computed && f.default !== undefined) {
    return `inline constexpr NumberOption ${name}{"${key}", "${label}", ${cpp(f.min)}, ${cpp(f.max)}, ${cpp(f.default)}};`;
  }
  if (f.type === 'int' || f.type === 'number') return `inline constexpr BoundedOption ${name}{"${key}", "${label}", ${cpp(f.min)}, ${cpp(f.max)}};`;
  if (f.type === 'bool') return `inline constexpr BoolOption ${name}{"${key}", "${label}", ${f.default}};`;
  if (f.type === 'string' && f.default !== undefined) return `inline constexpr StringOption ${name}{"${key}", "${label}", "${f.default}"};`;
  return `inline constexpr Option ${name}{"${key}", "${label}"};`;
}

export function headerText() {
  const out = [
    '// Generated by wasm/tools/gen-api.mjs from wasm/schema.js: edit the schema, then run',
    '// `node wasm/tools/gen-api.mjs` (npm run build does). For each function of the JS API, its',
    '// arguments\' names and bounds and its options\' keys and defaults, for the bindings: a binding',
    '// names a field through these, so it cannot read an option the schema does not declare.',
    '#pragma once',
    '',
    '#include "core/family_attention.hpp"',
    '#include "core/limits.hpp"',
    '#include "core/transformer_xl.hpp"',
    '#include "core/vision.hpp"',
    '#include "wasm/bindings/api_types.hpp"',
    '',
    'namespace posenc::js::api {',
    '',
    '// The schema\'s caps are the core\'s.',
  ];
  for (const [name, v] of Object.entries(LIMITS)) out.push(`static_assert(${name} == ${cpp(v)}, "wasm/schema.js LIMITS.${name} differs from the core");`);
  for (const [fn, spec] of Object.entries(API)) {
    out.push('', `namespace ${fn} {`);
    for (const a of spec.args) out.push(cppField(a, a.name));
    if (spec.options) {
      out.push('namespace opt {');
      for (const [key, f] of Object.entries(spec.options)) out.push(cppField(f, key, key, `options.${key}`));
      out.push('}  // namespace opt');
    }
    out.push(`}  // namespace ${fn}`);
  }
  out.push('', 'namespace scaling {', 'inline constexpr StringOption type{"type", "scaling.type", ""};', '}  // namespace scaling');
  for (const [type, s] of Object.entries(ROPE_SCALINGS)) {
    if (!Object.keys(s.fields).length) continue;
    out.push('', `namespace scaling::${type} {`);
    for (const [key, f] of Object.entries(s.fields)) out.push(cppField(f, key, key, `scaling.${key}`));
    out.push(`}  // namespace scaling::${type}`);
  }
  out.push('', '}  // namespace posenc::js::api', '');
  return out.join('\n');
}

// [PALETTE] -----------------------------------------------------------------------------------
function paletteText() {
  const stops = (name, list) => `constexpr unsigned char ${name}[][3] = {${list.map((c) => `{${c.join(', ')}}`).join(', ')}};`;
  return `// Generated by wasm/tools/gen-api.mjs from web/kit/palette.js: edit the palette there, not this.
// The page's colour stops, evenly spaced along each scale, for the Lab's figures.
#pragma once

namespace posenc::lab {
${stops('kDivergingStops', DIVERGING_STOPS)}
${stops('kSequentialStops', SEQUENTIAL_STOPS)}
}  // namespace posenc::lab
`;
}

// [FILES] -------------------------------------------------------------------------------------
const familiesBlock = () => `export type TrainFamily = ${TRAIN_FAMILIES.map((f) => `'${f}'`).join(' | ')};`;
const MARKERS = [
  ['wasm/posenc.d.ts', '// <api> generated by wasm/tools/gen-api.mjs from wasm/schema.js: edit the schema, not this', '// </api>', dtsBlock],
  ['wasm/posenc.d.ts', '// <families> generated by wasm/tools/gen-api.mjs from wasm/train.js (the registry\'s names)', '// </families>', familiesBlock],
  ['docs/api.md', '<!-- api: generated by wasm/tools/gen-api.mjs from wasm/schema.js; edit the schema, not this table -->', '<!-- /api -->', readmeBlock],
];

/** Every generated file's expected text: { path: text }. */
export async function expectedFiles() {
  const files = { 'wasm/bindings/api.gen.hpp': headerText(), 'wasm/lab/palette.gen.hpp': paletteText() };
  for (const [path, open, close, block] of MARKERS) {
    const text = files[path] ?? await readFile(new URL(path, root), 'utf8');
    const a = text.indexOf(open);
    const b = text.indexOf(close);
    if (a < 0 || b < a) throw new Error(`${path}: the markers ${open} … ${close} are missing`);
    files[path] = `${text.slice(0, a + open.length)}\n${block()}\n${text.slice(b)}`;
  }
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  const stale = [];
  for (const [path, want] of Object.entries(await expectedFiles())) {
    const url = new URL(path, root);
    const have = await readFile(url, 'utf8').catch(() => null);
    if (have === want) continue;
    stale.push(path);
    // Unchanged files keep their mtime, so ninja rebuilds nothing when nothing changed.
    if (!check) await writeFile(url, want);
  }
  if (check && stale.length) {
    console.error(`gen-api: not current (run node wasm/tools/gen-api.mjs): ${stale.join(', ')}`);
    process.exit(1);
  }
  if (!check && stale.length) console.log(`gen-api: wrote ${stale.join(', ')}`);
}
