// Step "extend": the two models, the six methods and their settings, and the core's scaling
// option for each (HF's rope_scaling, camelCase).
export const D = 128;                 // head dimension of both models
export const PAIRS = D / 2;
export const SAMPLES = 128;           // the score is drawn at Δ = k·L′/128, k = 0..128 (L and L′ included)
export const BETA_FAST = 32;          // YaRN's defaults: pairs turning ≥ 32 times within L are kept,
export const BETA_SLOW = 1;           // pairs turning < once are divided by the factor
export const LOW_FF = 1;              // Llama 3.1's low_freq_factor and high_freq_factor
export const HIGH_FF = 4;
export const MODELS = {
  llama2: { base: 10000, L: 4096 },
  llama3: { base: 500000, L: 8192 },
};
export const METHODS = ['none', 'linear', 'ntk', 'dynamic', 'yarn', 'llama3'];
export const RANDOM_PAIRS = 32;       // independent random q, k pairs averaged on the score plot
export const RANDOM_SEED = 41;        // q rows from this seed, k rows from the next
export const FACTORS = [2, 4, 8, 16, 32];
export const READS = [2, 4, 8, 16, 32];   // L′ = read · L
export const PRESETS = {
  llama2: { model: 'llama2', method: 'none', factor: 4, read: 4 },
  llama31: { model: 'llama3', method: 'llama3', factor: 8, read: 16 },    // 131 072 = Llama 3.1's context
  yarn16: { model: 'llama2', method: 'yarn', factor: 16, read: 16 },
};

/** The scaling option of the core for a method (HF's rope_scaling, camelCase). */
export function scalingFor(method, { L }, factor, readLength) {
  switch (method) {
    case 'linear': return { type: 'linear', factor };
    case 'ntk': return { type: 'ntk', factor };
    case 'dynamic': return { type: 'dynamic', factor, maxPositions: L, seqLen: readLength };
    case 'yarn': return { type: 'yarn', factor, originalMaxPositions: L, betaFast: BETA_FAST, betaSlow: BETA_SLOW };
    case 'llama3': return { type: 'llama3', factor, originalMaxPositions: L, lowFreqFactor: LOW_FF, highFreqFactor: HIGH_FF };
    default: return undefined;
  }
}
