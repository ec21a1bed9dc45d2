#include "encoding_sampling.hpp"

#include <cmath>
#include <numbers>

namespace plot::detail {
namespace {

double sinc(double h) { return std::abs(h) < 1e-8 ? 1.0 : std::sin(h) / h; }

double frequency(std::span<const float> frequencies, EncodingFunction f, int row) {
  const int k = encoding_frequency_index(f, row);
  return k >= 0 && k < static_cast<int>(frequencies.size()) ? static_cast<double>(frequencies[k]) : 0.0;
}

// x mod 1 in [0, 1).
double fraction(double x) { return x - std::floor(x); }

}  // namespace

int encoding_frequency_index(EncodingFunction f, int row) {
  return f == EncodingFunction::Sinusoidal ? row / 2 : row;
}

bool encoding_row_is_cos(EncodingFunction f, int row) {
  switch (f) {
    case EncodingFunction::RopeCos: return true;
    case EncodingFunction::RopeSin: return false;
    case EncodingFunction::Sinusoidal: return row % 2 == 1;  // PE(p, 2i) = sin, PE(p, 2i+1) = cos
  }
  return true;
}

double encoding_value(EncodingFunction f, std::span<const float> frequencies, int row, double position) {
  const double angle = frequency(frequencies, f, row) * position;
  return encoding_row_is_cos(f, row) ? std::cos(angle) : std::sin(angle);
}

double encoding_mean(EncodingFunction f, std::span<const float> frequencies, int row, double a, double b) {
  const double theta = frequency(frequencies, f, row);
  const double h = 0.5 * theta * (b - a);
  return encoding_value(f, frequencies, row, 0.5 * (a + b)) * sinc(h);
}

PixelSample encoding_pixel_sample(EncodingFunction f, std::span<const float> frequencies, int row, double center,
                                  double dx, bool pixel_mean) {
  PixelSample s;
  s.a = center - 0.5 * std::abs(dx);
  s.b = center + 0.5 * std::abs(dx);
  if (std::abs(dx) <= 1.0) {  // dx < 0 on an inverted x axis
    s.cell = true;
    s.position = std::floor(center + 0.5);
    s.value = encoding_value(f, frequencies, row, s.position);
  } else if (pixel_mean) {
    s.mean = true;
    s.position = center;
    s.value = encoding_mean(f, frequencies, row, s.a, s.b);
  } else {
    s.position = center;
    s.value = encoding_value(f, frequencies, row, center);
  }
  return s;
}

EncodingShaderRows encoding_shader_rows(EncodingFunction f, std::span<const float> frequencies, int rows,
                                        double center0, double dx, bool pixel_mean) {
  // Precision: float32 cannot hold p·θ for p ~ 10^6 (its spacing there is 0.06 rad), so
  // the angle is never formed on the GPU. Here, in double, each row gets its phase at the
  // first drawn column, already reduced mod one turn, and the per-column step reduced the
  // same way. The shader adds n·step for a column (or cell) index n < 2^14, with the step
  // split so that n·hi is exact and n·lo is tiny: the error stays ~1e-6 rad at any p.
  EncodingShaderRows out;
  out.cell_mode = std::abs(dx) <= 1.0;  // dx < 0 on an inverted x axis
  double base = center0;
  if (out.cell_mode) {
    base = std::floor(center0 + 0.5);
    out.cell_offset = static_cast<float>(center0 - base);
  }
  constexpr double two_pi = 2.0 * std::numbers::pi;
  constexpr double hi_scale = 1 << kShaderStepHiBits;
  out.texels.resize(static_cast<size_t>(rows) * 4);
  for (int r = 0; r < rows; ++r) {
    const double theta = frequency(frequencies, f, r);
    const double step_rad = out.cell_mode ? theta : theta * dx;
    const double phase = fraction(theta * base / two_pi);
    const double step = fraction(step_rad / two_pi);
    const double hi = std::floor(step * hi_scale) / hi_scale;
    const double factor = (!out.cell_mode && pixel_mean) ? sinc(0.5 * theta * dx) : 1.0;
    float* t = &out.texels[static_cast<size_t>(r) * 4];
    t[0] = static_cast<float>(phase);
    t[1] = static_cast<float>(hi);
    t[2] = static_cast<float>(step - hi);
    t[3] = static_cast<float>(factor);
  }
  return out;
}

}  // namespace plot::detail
