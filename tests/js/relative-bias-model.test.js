// web/steps/relative-bias/model.js on both builds, each panel against references computed here:
// Shaw's clip(j − i, −k, k) + k for every k, i and j; T5's buckets as HF / mesh-tensorflow define
// them, decided exactly (tests/js/reference.js, BigInt at the log-spaced boundaries) and
// cross-checked with a float64 transcription of the HF code, the buckets in use, the distances
// that share the pair's bucket, its region and the staircases; Transformer-XL's four terms from
// the seeded vectors redrawn with BigInt and the paper code's relative sinusoid
// (tests/expect/relative-bias.js). And the step's claims: the T5 preset's last bucket starts at
// distance 91, well before max_distance 128, and a bidirectional sequence never uses bucket
// N/2 (distance 0 after the query).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SHAW_LEN, XL_DIM, XL_LEN, exactCount, perSide, relativeBiasModel } from '../../web/steps/relative-bias/model.js';
import { hfBucket, t5Bucket, xlInputs, xlTerms } from '../expect/relative-bias.js';
import { assertAllClose, loadBoth, moduleName } from './helpers.js';

const cores = await loadBoth();
const clip = (i, j, k) => Math.min(k, Math.max(-k, j - i)) + k;
// The T5 settings the test walks: presets, both directions, few and many buckets, maxd near the
// exact range, short and the longest sequences.
const T5_SETTINGS = [
  { len: 128, nb: 32, maxd: 128, bidir: true }, { len: 256, nb: 32, maxd: 128, bidir: false },
  { len: 64, nb: 16, maxd: 40, bidir: true }, { len: 512, nb: 64, maxd: 512, bidir: true },
  { len: 32, nb: 8, maxd: 20, bidir: false }, { len: 512, nb: 128, maxd: 1024, bidir: true },
  { len: 48, nb: 10, maxd: 6, bidir: true }, { len: 16, nb: 4, maxd: 3, bidir: false }, { len: 16, nb: 4, maxd: 2, bidir: true }, { len: 512, nb: 64, maxd: 33, bidir: false },
];

test('the exact T5 reference agrees with the HF float64 code away from exact boundaries, and hits the REFERENCES values', () => {
  let differ = 0;
  for (const [bidir, nb, maxd] of [[true, 32, 128], [false, 32, 128], [true, 64, 256], [false, 20, 50], [true, 8, 1000]]) {
    for (let rp = -600; rp <= 600; rp++) if (t5Bucket(rp, bidir, nb, maxd) !== hfBucket(rp, bidir, nb, maxd)) differ++;
  }
  // Only values exactly on a boundary may differ (float64 can land a hair below the integer).
  assert.ok(differ <= 20, `${differ} differences`);
  assert.deepEqual([-64, -16, 0, 16, 64].map((rp) => t5Bucket(rp, true, 32, 128)), [14, 10, 0, 26, 30]);
});

for (const pe of cores) {
  const name = moduleName(pe);

  test(`${name}: Shaw, every k, i and j: the index, the clipped distance, the distance, the table's rows, the map`, () => {
    const model = relativeBiasModel(pe);
    for (let k = 0; k < SHAW_LEN; k++) {
      for (let i = 0; i < SHAW_LEN; i++) {
        for (let j = 0; j < SHAW_LEN; j++) {
          const s = model.shaw({ k, i, j });
          const where = `k ${k} i ${i} j ${j}`;
          assert.equal(s.at, clip(i, j, k), where);
          assert.equal(s.clippedAt, clip(i, j, k) - k, where);
          assert.equal(s.distance, j - i, where);
          assert.equal(s.size, 2 * k + 1, where);
          assert.equal(s.row[j], clip(i, j, k), where);
          assert.equal(s.clipped[i * SHAW_LEN + j], clip(i, j, k) - k, `${where}: map`);
        }
      }
      // 2k + 1 distinct rows of the table in use (one when k = 0), while 2k + 1 ≤ 2·16 − 1.
      assert.equal(new Set(model.shaw({ k, i: 0, j: 0 }).index).size, Math.min(2 * k + 1, 2 * SHAW_LEN - 1), `k ${k}: rows in use`);
    }
  });

  test(`${name}: T5, many settings and every pair offset: bucket, region, shared distances, buckets in use, staircases, map shade`, () => {
    const model = relativeBiasModel(pe);
    for (const set of T5_SETTINGS) {
      const { len, nb, maxd, bidir } = set;
      const bucket = (rp) => t5Bucket(rp, bidir, nb, maxd);
      const side = perSide(nb, bidir);
      const exact = exactCount(nb, bidir);
      const used = new Set();
      for (let r = -(len - 1); r <= len - 1; r++) used.add(bucket(r));
      const table = model.t5Buckets(set);
      assert.equal(table.used, used.size, `${JSON.stringify(set)}: used`);
      for (let n = 0; n < table.rel.length; n++) assert.equal(table.buckets[n], bucket(table.rel[n]), `${JSON.stringify(set)} rp ${table.rel[n]}`);
      // Shade: the bucket within its direction, negative before the query.
      for (const [q, c] of [[0, 0], [0, len - 1], [len - 1, 0], [len >> 1, (len >> 1) + 1], [len - 1, len - 1]]) {
        const b = bucket(c - q);
        assert.equal(table.cells[q * len + c], bidir && c > q ? b - side : -b, `${JSON.stringify(set)} shade (${q}, ${c})`);
      }
      const pairs = [[0, 0], [len - 1, 0], [0, len - 1], [len >> 1, (len >> 1) - exact], [len >> 1, (len >> 1) - exact + 1], [len - 1, len - 2]];
      for (const [ti, tj] of pairs) {
        const where = `${JSON.stringify(set)} (${ti}, ${tj})`;
        const rp = tj - ti;
        const want = bucket(rp);
        const p = model.t5({ ...set, ti, tj });
        assert.equal(p.rp, rp, where);
        assert.equal(p.bucket, want, where);
        const n = bidir ? Math.abs(rp) : Math.max(-rp, 0);
        assert.equal(p.n, n, where);
        // The region: keys after the query in a decoder, the exact buckets, the last bucket of the
        // side (all further distances), or the log-spaced ones between.
        const within = bidir && rp > 0 ? want - side : want;
        const region = !bidir && rp > 0 ? 'future' : n < exact ? 'exact' : within === side - 1 ? 'last' : 'log';
        assert.equal(p.region, region, where);
        // The distances on the pair's side with its bucket: walk out from the pair.
        if (!bidir && rp > 0) assert.deepEqual(p.range, { kind: 'future' }, where);
        else {
          const sameSide = (r) => (bidir ? Math.sign(r) === Math.sign(rp) : r <= 0);
          const outward = rp < 0 ? -1 : 1;
          let nearest = rp;
          while (sameSide(nearest - outward) && bucket(nearest - outward) === want) nearest -= outward;
          let farthest = rp;
          let open = false;
          while (sameSide(farthest + outward) && bucket(farthest + outward) === want) {
            farthest += outward;
            if (Math.abs(farthest) > 2 * (maxd + len)) { open = true; break; }
          }
          assert.equal(p.range.kind, open ? 'open' : 'span', `${where}: range kind`);
          assert.equal(p.range.from, Math.abs(nearest), `${where}: from`);
          if (!open) assert.equal(p.range.to, Math.abs(farthest), `${where}: to`);
        }
      }
      const p = model.t5({ ...set, ti: 0, tj: 0 });
      assert.deepEqual(Array.from(p.before), Array.from({ length: len }, (_, d) => bucket(-d)), `${JSON.stringify(set)}: before`);
      assert.deepEqual(Array.from(p.later), Array.from({ length: len }, (_, d) => bucket(d)), `${JSON.stringify(set)}: after`);
      let first = -1;
      for (let d = 0; d < len && first < 0; d++) if (bucket(-d) === side - 1) first = d;
      assert.equal(p.lastFrom, first, `${JSON.stringify(set)}: last bucket from`);
    }
  });

  test(`${name}: T5 preset: the last bucket starts at distance 91, bucket 16 never occurs (31 of 32 used)`, () => {
    const model = relativeBiasModel(pe);
    const preset = { len: 128, nb: 32, maxd: 128, bidir: true };
    const { kind, from } = model.t5({ ...preset, ti: 110, tj: 19 }).range;
    assert.deepEqual([kind, from], ['open', 91]);
    assert.equal(model.t5({ ...preset, ti: 110, tj: 20 }).bucket, 14);
    assert.equal(model.t5Buckets(preset).used, 31);
    assert.ok(!model.t5Buckets(preset).buckets.includes(16));
  });

  test(`${name}: Transformer-XL, edge and inner pairs over seeds: the four terms, the score, every key's terms, the plot's range, the inputs`, () => {
    const model = relativeBiasModel(pe);
    for (const [xi, xj, seed] of [[12, 7, 0], [0, 0, 0], [23, 0, 0], [0, 23, 99], [5, 19, 3], [12, 12, 42], [17, 4, 99], [23, 23, 1]]) {
      const where = `(${xi}, ${xj}) seed ${seed}`;
      const x = model.xl({ xi, xj, seed });
      const want = xlTerms(xi, xj, seed);
      assertAllClose(x.terms, want.terms, { abs: 1e-12, rel: 1e-12 }, `${where}: terms`);
      assertAllClose([x.score], [want.score], { abs: 1e-12, rel: 1e-12 }, `${where}: score`);
      assert.equal(x.distance, xi - xj);
      const every = Array.from({ length: XL_LEN }, (_, j) => xlTerms(xi, j, seed));
      for (let t = 0; t < 4; t++) assertAllClose(x.columns[t], every.map((e) => e.terms[t]), { abs: 1e-12, rel: 1e-12 }, `${where}: term ${t} per key`);
      assertAllClose(x.sum, every.map((e) => e.score), { abs: 1e-12, rel: 1e-12 }, `${where}: score per key`);
      // The plot's range holds every term and score with at least half a unit to spare.
      const all = [...every.flatMap((e) => e.terms), ...every.map((e) => e.score)];
      const [min, max] = [Math.min(...all), Math.max(...all)];
      assert.ok(x.lo <= min - 0.5 && x.lo > min - 1.0 - 1e-12 && Number.isInteger(2 * x.lo), `${where}: lo ${x.lo} for ${min}`);
      assert.ok(x.hi >= max + 0.5 && x.hi < max + 1.0 + 1e-12 && Number.isInteger(2 * x.hi), `${where}: hi ${x.hi} for ${max}`);
      const inputs = model.xlInputs({ xi, xj, seed });
      const ref = xlInputs(xi, xj, seed);
      for (const [got, wanted] of [[inputs.query, ref.q], [inputs.key, ref.k], [inputs.u, ref.u], [inputs.v, ref.v], [inputs.r, ref.r], [inputs.wr, ref.w]]) {
        assertAllClose(got, wanted, { abs: 1e-15, rel: 0 }, `${where}: inputs`);
      }
      assert.equal(inputs.wr.length, XL_DIM * XL_DIM);
    }
  });
}
