#pragma once
// What an encoding heatmap shows in each pixel, computed exactly (double) on the CPU for
// the hover read-out, and the per-row parameters that let the float32 shader reproduce
// it at positions up to 10^6 and beyond.
//
// A pixel column covers positions [a, b] (b − a = dx, positions per framebuffer pixel):
//  - dx ≤ 1 (zoomed in): the value of the integer position nearest the pixel centre;
//    positions are table cells centred on integers.
//  - dx > 1 and pixel_mean: the mean over [a, b] in closed form,
//      mean cos(θp) = (sin θb − sin θa) / (θ(b − a)) = cos(θm) · sin(h)/h,
//      mean sin(θp) = (cos θa − cos θb) / (θ(b − a)) = sin(θm) · sin(h)/h,
//    with m = (a + b)/2, h = θ(b − a)/2. The product form has no cancellation, so no
//    small-angle fallback is needed beyond sin(h)/h → 1.
//  - dx > 1 without pixel_mean: the point value at the pixel centre (shows the moiré).
#include <span>
#include <vector>

#include "plot.hpp"

namespace plot::detail {

// Frequency index and function of a display row.
int encoding_frequency_index(EncodingFunction f, int row);
bool encoding_row_is_cos(EncodingFunction f, int row);

// The encoding at one (possibly non-integer) position, in double.
double encoding_value(EncodingFunction f, std::span<const float> frequencies, int row, double position);
// Its mean over positions [a, b] (closed form; the point value when a == b).
double encoding_mean(EncodingFunction f, std::span<const float> frequencies, int row, double a, double b);

// What the pixel whose centre is at `center` (positions) with width dx shows.
struct PixelSample {
  bool cell = false;       // single integer position
  double position = 0;     // the cell's position, or the pixel centre
  double a = 0, b = 0;     // span averaged over (mean mode)
  bool mean = false;
  double value = 0;
};
PixelSample encoding_pixel_sample(EncodingFunction f, std::span<const float> frequencies, int row, double center,
                                  double dx, bool pixel_mean);

// Shader parameters for framebuffer columns c0, c0+1, ... whose centres are at positions
// center0 + j·dx. Per row (RGBA32F texel): phase in turns at j = 0 (cell mode: at integer
// position base), step per j in turns split into hi (10 fractional bits, so j·hi is exact
// in float32 for j < 2^14) and lo (the rest), and the sin(h)/h factor.
struct EncodingShaderRows {
  bool cell_mode = false;
  float cell_offset = 0;  // cell mode: centre0 − base, so cell n = floor(offset + j·dx + 0.5)
  std::vector<float> texels;  // rows × 4
};
EncodingShaderRows encoding_shader_rows(EncodingFunction f, std::span<const float> frequencies, int rows,
                                        double center0, double dx, bool pixel_mean);

inline constexpr int kShaderStepHiBits = 10;

}  // namespace plot::detail
