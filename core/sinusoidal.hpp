// Sinusoidal positional encoding (Vaswani et al. 2017, section 3.5).
//
//   div_i = exp(2i * (-ln base / d))     (PyTorch tutorial's PositionalEncoding)
//   PE[pos, 2i] = sin(pos * div_i),  PE[pos, 2i + 1] = cos(pos * div_i)
//
// Odd d: we apply the paper formula at every index, so the last column d - 1 = 2i is a sine
// with div_i (the PyTorch tutorial raises a shape error instead; tensor2tensor zero-pads).
#pragma once

#include <vector>

namespace posenc {

struct SinusoidalParams {
  int positions = 0;     // rows: positions offset, offset + 1, ..., offset + positions - 1
  int dModel = 0;        // columns
  double base = 10000.0;
  double offset = 0.0;   // first position (an integer >= 0)
};

// Throws RangeError naming the argument when a field is out of range.
void checkSinusoidal(const SinusoidalParams& p);

// div_i for i = 0 .. ceil(d/2) - 1, in double.
std::vector<double> sinusoidalFrequencies(int dModel, double base);

// Writes positions * dModel floats, row-major, into out (checked first).
void sinusoidal(const SinusoidalParams& p, float* out);

// PE(m) . PE(n) in double: sum_i cos((m - n) div_i), plus sin(m w) sin(n w) for the extra sine
// column of an odd d. Its maximum, at m = n, is d/2 for even d.
double sinusoidalDot(double m, double n, int dModel, double base);

}  // namespace posenc
