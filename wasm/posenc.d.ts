// Types of the public API (wasm/posenc.js). Every function checks its arguments and throws a
// RangeError (value out of range: NaN, ±Infinity, negative, odd dim, over a cap) or a TypeError
// (wrong kind: not a number, not an array, wrong length, unknown option string). The message
// names the argument and its allowed range. After an error the instance keeps working.
//
// Caps (core/limits.hpp): dims ≤ 8192; rows/positions ≤ 2^20; one result ≤ 2^24 elements;
// positions are integers in [0, 2^31 − 1]; base in (1, 1e12]; ALiBi heads ≤ 4096, length ≤ 4096.

export type NumberArray = ArrayLike<number> & (number[] | Float32Array | Float64Array | Int32Array |
  Uint32Array | Int16Array | Uint16Array | Int8Array | Uint8Array);

/** Either a count n (positions 0..n−1) or explicit positions. */
export type Positions = number | NumberArray;

export type RopeScaling =
  | { type: 'default' }
  | { type: 'linear'; factor: number }
  | { type: 'ntk'; factor: number }
  | { type: 'dynamic'; factor: number; maxPositions: number; seqLen?: number }
  | {
      type: 'yarn'; factor: number; originalMaxPositions: number; betaFast?: number; betaSlow?: number;
      mscale?: number; mscaleAllDim?: number; truncate?: boolean; attentionFactor?: number;
    }
  | { type: 'llama3'; factor: number; originalMaxPositions: number; lowFreqFactor?: number; highFreqFactor?: number }
  | {
      type: 'longrope'; originalMaxPositions: number; maxPositions: number; seqLen?: number;
      shortFactor: NumberArray; longFactor: NumberArray; attentionFactor?: number;
    };

export interface Posenc {
  /** Which module runs: true for the WebAssembly SIMD build, false for the scalar one. */
  readonly simd: boolean;
  /** Sinusoidal table, positions × dModel, row-major. Odd dModel: the last column is a sine. */
  sinusoidal(positions: number, dModel: number, options?: { base?: number; offset?: number }): Float32Array;
  /** ω_i = base^(−2i/d) for i < ceil(d/2), in float64. */
  sinusoidalFrequencies(dModel: number, options?: { base?: number }): Float64Array;
  /** PE(m)·PE(n) in float64 (= Σ cos((m−n)ω_i) for even d). */
  sinusoidalDot(m: number, n: number, dModel: number, options?: { base?: number }): number;
  /** Rows of a seeded stand-in for a learned table; a position ≥ maxPositions throws RangeError. */
  learned(positions: Positions, dModel: number, options?: { maxPositions?: number; seed?: number; std?: number }): Float32Array;
  /** RoPE inverse frequencies (dim/2, float64) and the attention factor of the scaling. */
  ropeFrequencies(dim: number, options?: { base?: number; scaling?: RopeScaling }): { invFreq: Float64Array; attentionFactor: number };
  /** Rotates x (rows × dim, rows = positions) pair by pair; scaled by the attention factor as HF does. */
  ropeApply(x: NumberArray, positions: Positions, dim: number,
    options?: { layout?: 'half' | 'interleaved'; base?: number; scaling?: RopeScaling }): Float32Array;
  /** ALiBi slopes in the reference code's order (unsorted for non-powers of two). */
  alibiSlopes(nHeads: number): Float64Array;
  /** length × length: −slope·|i−j|, −Infinity where j > i when causal (the default). */
  alibiBias(length: number, slope: number, options?: { causal?: boolean }): Float32Array;
  /** rows(queries) × rows(keys): −slope·|q−k| for the given positions, −Infinity where k > q when causal (the default). */
  alibiBiasBlock(queries: Positions, keys: Positions, slope: number, options?: { causal?: boolean }): Float32Array;
  /** T5 buckets of key − query offsets. */
  t5Bucket(relativePositions: NumberArray, options?: { bidirectional?: boolean; numBuckets?: number; maxDistance?: number }): Int32Array;
  /** clip(j − i, −k, k) + k for a queryLength × keyLength matrix (queries are the last positions). */
  shawIndex(queryLength: number, keyLength: number, maxDistance: number): Int32Array;
  /** softmax(Q·Kᵀ·scale + bias + causal mask) row by row, rows(q) × rows(k). */
  attention(q: NumberArray, k: NumberArray, dim: number,
    options?: { bias?: NumberArray; causal?: boolean; scale?: number; softmax?: boolean }): Float32Array;
  /**
   * One attention head over a seeded token sequence of n tokens for a position family
   * of the registry shared with the trainer ('none', 'sinusoidal', 'learned', 't5' = T5 buckets
   * with stand-in biases ('relative' is accepted for it), 'rope', 'alibi'; model in
   * core/family_attention.hpp). `cells`: rows.length × columns, query rows[r]'s
   * probabilities summed per key bin [⌊c·n/columns⌋, ⌊(c+1)·n/columns⌋) (each row sums to 1);
   * `scores`/`probs`: the exact row of `query` (scores −Infinity where masked). n ≤ 8192,
   * dim even ≤ 256, rows default 0..n−1, columns default n, causal default true.
   */
  familyAttention(family: 'none' | 'sinusoidal' | 'learned' | 't5' | 'relative' | 'rope' | 'alibi', n: number, dim: number,
    options?: { rows?: NumberArray; columns?: number; query?: number; causal?: boolean; seed?: number; base?: number;
      heads?: number; head?: number; numBuckets?: number; maxDistance?: number }): { cells: Float32Array; scores: Float32Array; probs: Float32Array };
  /** Stable softmax of each row of x (rows × cols); −Infinity entries get weight 0. */
  softmax(x: NumberArray, cols: number): Float32Array;
  /** Transformer-XL's four score terms for query i and key j from seeded example vectors (not trained
   * weights; core/transformer_xl.hpp gives the generator): (a) q_i·k_j, (b) q_i·W_R R_{i−j}, (c) u·k_j,
   * (d) v·W_R R_{i−j}, and their sum (before the 1/√dim scale). dim even in [2, 1024], seed in [0, 2^32). */
  transformerXlTerms(i: number, j: number, dim: number, options?: { seed?: number; base?: number }):
    { contentContent: number; contentPosition: number; globalContent: number; globalPosition: number; score: number };
  /** The four terms for query i against each key: Float64Array(keys·4), [(a), (b), (c), (d)] per key. */
  transformerXlRow(i: number, keys: Positions, dim: number, options?: { seed?: number; base?: number }): Float64Array;
  /** The seeded inputs of the pair: q_i, k_j, u, v, R_{i−j} (dim each) and W_R (dim × dim, row-major). */
  transformerXlInputs(i: number, j: number, dim: number, options?: { seed?: number; base?: number }):
    { query: Float64Array; key: Float64Array; u: Float64Array; v: Float64Array; r: Float64Array; wr: Float64Array };
  /** 2-D sin-cos on a rows × cols patch grid, (rows·cols) × d, patch (r, c) at row r·cols + c: [sin cω, cos cω, sin rω, cos rω], ω_k = base^(−k/(d/4)); d a multiple of 4. */
  sincos2d(rows: number, cols: number, d: number, options?: { base?: number }): Float32Array;
  /** Axial 2-D RoPE: x (d values, d a multiple of 4) rotated at every patch; interleaved pairs p < d/4 turn by c·ω_p, the rest by r·ω_(p−d/4). */
  axialRope(x: NumberArray, rows: number, cols: number, options?: { base?: number }): Float32Array;
  /** q′(r, c)·k′(r2, c2) for every patch (r2, c2), q = k = options.q (default d ones), float64; cosine divides by |q|². */
  axialRopeScores(rows: number, cols: number, d: number, r: number, c: number,
    options?: { base?: number; q?: NumberArray; cosine?: boolean }): Float64Array;
  /** A seeded stand-in for a learned ViT grid table, (rows·cols) × d, entries ≈ N(0, std²), smooth over the grid. */
  learnedGrid(rows: number, cols: number, d: number, options?: { seed?: number; std?: number }): Float32Array;
  /** Bilinear resize of a rows × cols grid of d-vectors (PyTorch upsample_bilinear2d; alignCorners false by default). */
  interpolateGrid(table: NumberArray, rows: number, cols: number, d: number, newRows: number, newCols: number,
    options?: { alignCorners?: boolean }): Float32Array;
  /** Row `index` of a table of d-wide rows against every row: dot products, or cosines with { cosine: true }; float64. */
  gridSimilarity(table: NumberArray, d: number, index: number, options?: { cosine?: boolean }): Float64Array;
}

/** Loads the core; 'auto' (default) probes WebAssembly SIMD and falls back to the scalar build. */
export function loadPosenc(options?: { simd?: 'auto' | boolean; baseUrl?: string | URL }): Promise<Posenc>;
/** True when this engine validates WebAssembly SIMD code. */
export function simdSupported(): boolean;

// [TRAINER] ------------------------------------------------------------------------------------
// loadTrainer() loads the trainer module (core/train/: a decoder-only transformer trained by
// hand-written backward passes and AdamW). Every config field is optional: the defaults are the
// 'tiny' preset, the protocol of the reference run. Unknown fields are a TypeError.

export type TrainTask = 'copy' | 'reverse' | 'repeat' | 'retrieval';
export type TrainFamily = 'none' | 'sinusoidal' | 'learned' | 't5' | 'rope' | 'alibi';

export interface TrainConfig {
  /** 'repeat' by default; see core/train/tasks.hpp for each task's sequence. */
  task?: TrainTask;
  /** 'none' by default (NoPE). */
  family?: TrainFamily;
  /** Task lengths drawn uniformly for each training sequence, integers in [1, 256]; default 1..8. */
  trainLengths?: NumberArray;
  /** Lengths scored after training; default 1 .. 4 × the longest training length. */
  testLengths?: NumberArray;
  /** Alphabet size, [2, 64], default 8. Retrieval draws distinct keys: every length ≤ symbols. */
  symbols?: number;
  /** Width, [2, 512], default 32; divisible by heads, dModel / heads even. */
  dModel?: number;
  /** [1, 8], default 2. */
  layers?: number;
  /** [1, 16], default 2. */
  heads?: number;
  /** MLP hidden width, [1, 2048], default 128. */
  mlp?: number;
  /** [1, 100000], default 2000. */
  steps?: number;
  /** Sequences per step, [1, 512], default 32. */
  batch?: number;
  /** Peak learning rate, (0, 1], default 0.003. */
  learningRate?: number;
  /** Steps of linear warm-up, [0, 100000], default 100 (a shorter run warms up throughout). */
  warmup?: number;
  /** AdamW's decoupled weight decay on matrices and tables, [0, 1], default 0.1. */
  weightDecay?: number;
  /** Max global gradient norm, [0, 1e6], default 1; 0: no clipping. */
  clip?: number;
  /** [0, 2^32 − 1], default 0: initial weights and training batches. */
  seed?: number;
  /** Test sequences per test length, [1, 10000], default 64 (the same sequences for every seed and family). */
  testExamples?: number;
  /** Sinusoidal and RoPE base, default 10000. */
  base?: number;
  /** T5 buckets (even, [4, 4096], default 32) and maximum distance (default 128). */
  t5Buckets?: number;
  t5MaxDistance?: number;
}

/** Every field filled in, test lengths resolved. */
export type ResolvedTrainConfig = Required<Omit<TrainConfig, 'trainLengths' | 'testLengths'>> &
  { trainLengths: number[]; testLengths: number[] };

export interface StepLogs {
  from: number;
  /** Mean cross-entropy over the answer tokens of each step's batch, before its update. */
  loss: Float32Array;
  /** Share of each step's batch answered exactly. */
  exact: Float32Array;
  gradNorm: Float32Array;
  learningRate: Float32Array;
}

export interface LengthScore {
  length: number;
  examples: number;
  /** Share of test sequences whose whole answer (EOS included) is the model's top choice. */
  exact: number;
  /** Share of answer tokens that are. */
  tokens: number;
  loss: number;
}

export interface TrainParameters {
  /** Named tensors in one buffer; weights are stored input-major (y = x · W). */
  tensors: { name: string; rows: number; cols: number; offset: number; decay: boolean }[];
  values: Float32Array;
}

export interface Inspection {
  length: number;
  tokens: Int32Array;
  answerStart: number;
  /** The model's top choice after each answer position. */
  predicted: Int32Array;
  rows: number;
  layers: number;
  heads: number;
  /** layers × heads × rows × rows attention probabilities (0 above the diagonal). */
  attention: Float32Array;
}

export interface TrainRun {
  status(): { steps: number; finished: boolean; diverged: boolean; divergence: string; config: ResolvedTrainConfig;
    parameterCount: number; vocab: number; maxPositions: number };
  /** Takes up to `count` more steps; 0 once finished or diverged (a non-finite step is not applied). */
  step(count?: number): number;
  log(from?: number): StepLogs;
  evaluate(): LengthScore[];
  evaluate(length: number): LengthScore;
  inspect(length: number, index?: number): Inspection;
  parameters(): TrainParameters;
  setParameters(values: NumberArray): void;
  /** Frees the run's memory; any later call throws. */
  dispose(): void;
}

export interface TrainResult {
  config: ResolvedTrainConfig;
  status: 'done' | 'cancelled' | 'diverged';
  divergence: string;
  steps: number;
  log: StepLogs;
  accuracy: LengthScore[];
  parameters: TrainParameters;
  seconds: number;
}

export interface Trainer {
  readonly simd: boolean;
  /** The registry's families and the tasks, from the module. */
  readonly families: readonly TrainFamily[];
  readonly tasks: readonly TrainTask[];
  preset(name: 'tiny' | 'small'): ResolvedTrainConfig;
  config(config: TrainConfig): ResolvedTrainConfig;
  examples(config: TrainConfig, length: number, count?: number): { tokens: Int32Array; answerStart: number }[];
  vocabulary(config: TrainConfig): { symbols: number; pairs: number; values: number; bos: number; sep: number; eos: number; size: number };
  /** Cosine similarity of a table's rows (rows × rows) and their first two principal components (rows × 2). */
  analyseTable(table: NumberArray, rows: number, cols: number): { similarity: Float64Array; components: Float64Array; explained: [number, number] };
  createRun(config: TrainConfig): TrainRun;
  /** Runs to the end in slices of about sliceMs (default 40), yielding between them. */
  train(config: TrainConfig, options?: {
    onProgress?: (p: { steps: number; total: number; loss: number; exact: number; stepsPerSecond: number; secondsLeft: number }) => void;
    signal?: AbortSignal; sliceMs?: number;
  }): Promise<TrainResult>;
}

/** Loads the trainer module (options as loadPosenc's). */
export function loadTrainer(options?: { simd?: 'auto' | boolean; baseUrl?: string | URL }): Promise<Trainer>;
export const TRAIN_FAMILIES: readonly TrainFamily[];
export const TRAIN_TASKS: readonly TrainTask[];
export const TRAIN_FIELDS: readonly (keyof TrainConfig)[];
