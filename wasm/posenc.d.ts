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
  /** T5 buckets of key − query offsets. */
  t5Bucket(relativePositions: NumberArray, options?: { bidirectional?: boolean; numBuckets?: number; maxDistance?: number }): Int32Array;
  /** clip(j − i, −k, k) + k for a queryLength × keyLength matrix (queries are the last positions). */
  shawIndex(queryLength: number, keyLength: number, maxDistance: number): Int32Array;
  /** softmax(Q·Kᵀ·scale + bias + causal mask) row by row, rows(q) × rows(k). */
  attention(q: NumberArray, k: NumberArray, dim: number,
    options?: { bias?: NumberArray; causal?: boolean; scale?: number; softmax?: boolean }): Float32Array;
  /** Stable softmax of each row of x (rows × cols); −Infinity entries get weight 0. */
  softmax(x: NumberArray, cols: number): Float32Array;
}

/** Loads the core; 'auto' (default) probes WebAssembly SIMD and falls back to the scalar build. */
export function loadPosenc(options?: { simd?: 'auto' | boolean; baseUrl?: string | URL }): Promise<Posenc>;
/** True when this engine validates WebAssembly SIMD code. */
export function simdSupported(): boolean;
