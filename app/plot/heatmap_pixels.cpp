#include "heatmap_pixels.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <utility>

#include "colormap.hpp"
#include "pe/base/parallel.hpp"

namespace plot::detail {
namespace {

constexpr int kLutSize = 16384;  // colour steps of t: 1/16383 moves a channel < 0.25 of a level

// The shader's colormap() (shaders/colormap.glsl) at t = k / (kLutSize − 1), in float from the
// 8-bit control points, rounded to bytes as an RGBA8 framebuffer stores it.
const std::array<std::uint32_t, kLutSize>& colormap_lut(Colormap c) {
  static std::array<std::array<std::uint32_t, kLutSize>, 3> luts;
  static std::once_flag once;
  std::call_once(once, [] {
    for (const Colormap m : {Colormap::RdBu, Colormap::Viridis, Colormap::Cividis}) {
      const auto packed = colormap_packed_rgb(m);
      const int n = int(colormap_table(m).size());
      auto point = [&](int i, int channel) { return float((packed[std::size_t(i)] >> (16 - 8 * channel)) & 255u) / 255.0f; };
      for (int k = 0; k < kLutSize; ++k) {
        const float x = float(k) / float(kLutSize - 1) * float(n - 1);
        const int i = std::min(int(x), n - 2);
        const float f = x - float(i);
        std::uint32_t rgba = 0xff000000u;
        for (int ch = 0; ch < 3; ++ch) {
          const float a = point(i, ch), b = point(i + 1, ch);
          const float v = std::clamp(a + (b - a) * f, 0.0f, 1.0f);
          rgba |= std::uint32_t(std::lround(v * 255.0f)) << (8 * ch);
        }
        luts[std::size_t(m)][std::size_t(k)] = rgba;
      }
    }
  });
  return luts[std::size_t(c)];
}

// floor for |x| < 2^31 by truncation (SSE2 has no rounding instruction; this vectorises).
inline float floor_small(float x) {
  const float t = float(int(x));
  return t > x ? t - 1.0f : t;
}

// One heatmap row's colour indices for `width` columns: the shader's angle in turns, its
// sine or cosine, the value's place in the colormap. Branch-free, so GCC vectorises it (four
// or eight columns at once); `n` holds each column's position index n as a float.
template <bool kCos>
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("avx2", "default")))
#endif
void row_indices(const float* p, const float* n, float vmin, float span, int* index, int width) {
  const float phase = p[0], hi = p[1], lo = p[2], factor = p[3];
  for (int j = 0; j < width; ++j) {
    const float fn = n[j];
    float a = fn * hi;
    a -= floor_small(a);
    float b = fn * lo;
    b -= floor_small(b);
    float turns = phase + a + b;
    const float shifted = turns + 0.5f;
    turns = (shifted - floor_small(shifted)) - 0.5f;  // [−½, ½), as the shader
    const float mag = std::fabs(turns);
    // sin(2πu) with u in [−¼, ¼]: cos(2πt) = sin(2π(¼ − |t|)); sin(2πt) folds |t| > ¼ back.
    float u;
    if constexpr (kCos) {
      u = 0.25f - mag;
    } else {
      u = mag > 0.25f ? std::copysign(0.5f - mag, turns) : turns;
    }
    const float z = 6.2831855f * u, z2 = z * z;
    const float s =
        z * (1.0f + z2 * (-1.6666667e-1f + z2 * (8.3333333e-3f + z2 * (-1.9841270e-4f + z2 * (2.7557319e-6f + z2 * -2.5052108e-8f)))));
    const float t = std::max(0.0f, std::min((s * factor - vmin) / span, 1.0f));
    index[j] = int(t * float(kLutSize - 1) + 0.5f);
  }
}

bool row_is_cos(EncodingFunction f, int row) {
  return f == EncodingFunction::RopeCos || (f == EncodingFunction::Sinusoidal && (row & 1) == 1);
}

// The heatmap row of block row r, as the shaders compute it (shaders/heatmap_row.glsl).
int block_row(const PixelsTarget& p, int r) { return int(std::floor(p.row_a + p.row_b * (float(p.y0 + r) + 0.5f))); }

// Lines [first, last) of the block: alpha 0 where a line has no heatmap row (the shaders
// discard it), a copy of the line before where it shows the same row, else fill_line(row, line).
template <class FillLine>
void fill_lines(const PixelsTarget& p, int rows, std::uint32_t* out, int first, int last, FillLine fill_line) {
  const std::size_t width = std::size_t(p.width);
  int previous = -1;
  for (int r = first; r < last; ++r) {
    std::uint32_t* line = out + std::size_t(r) * width;
    const int row = block_row(p, r);
    if (row < 0 || row >= rows) {
      std::fill(line, line + width, 0u);
      previous = -1;
    } else if (row == previous) {
      std::memcpy(line, line - width, sizeof(std::uint32_t) * width);
    } else {
      fill_line(row, line);
      previous = row;
    }
  }
}

void fill_rows(const EncodingPixelsParams& p, std::uint32_t* out, int first, int last) {
  const auto& lut = colormap_lut(p.colormap);
  const std::size_t width = std::size_t(p.width);
  std::vector<int> index(width);
  // Each column's n, as the shader computes it (cell mode: the nearest integer position).
  std::vector<float> n(width);
  for (std::size_t j = 0; j < width; ++j) {
    const int column = p.x0 - p.column0 + int(j);
    n[j] = p.cell_mode ? floor_small(p.cell_offset + p.cell_dx * float(column) + 0.5f) : float(column);
  }
  const bool ranged = p.vmax > p.vmin;
  fill_lines(p, p.rows, out, first, last, [&](int row, std::uint32_t* line) {
    const float* texel = p.texels + 4 * std::size_t(row);
    if (!ranged) {
      std::fill(line, line + width, lut[kLutSize / 2]);  // the shader's t = 0.5
      return;
    }
    if (row_is_cos(p.function, row)) {
      row_indices<true>(texel, n.data(), p.vmin, p.vmax - p.vmin, index.data(), p.width);
    } else {
      row_indices<false>(texel, n.data(), p.vmin, p.vmax - p.vmin, index.data(), p.width);
    }
    for (std::size_t j = 0; j < width; ++j) line[j] = lut[std::size_t(index[j])];
  });
}

// Rows [0, height) filled by fill(first, last), in two halves on two threads when worth it
// (pe/base/parallel.hpp: in place in a page, or when no thread can be had).
template <class Fill>
void split_rows(int width, int height, int threads, Fill fill) {
  // The helper thread is worth its start (~50 µs) from ~10^4 pixels.
  if (threads > 1 && std::size_t(width) * std::size_t(height) >= 10000)
    pe::in_two_parts(height, 1, 1, [&](long long first, long long last) { fill(int(first), int(last)); });
  else
    fill(0, height);
}

// The run of block rows whose heatmap row floor(a + b · (y0 + r + ½)) is in [0, rows): rows
// follow y monotonically, so it is one run.
std::pair<int, int> drawn_rows(const PixelsTarget& p, int rows) {
  auto inside = [&](int r) {
    const int row = block_row(p, r);
    return row >= 0 && row < rows;
  };
  int lo = 0, hi = p.height;
  while (lo < hi && !inside(lo)) ++lo;
  while (hi > lo && !inside(hi - 1)) --hi;
  return {lo, hi};
}

}  // namespace

DrawnTexels encoding_pixels(const EncodingPixelsParams& p, std::vector<std::uint32_t>& out, int threads) {
  out.resize(std::size_t(std::max(p.width, 0)) * std::size_t(std::max(p.height, 0)));
  if (p.width <= 0 || p.height <= 0 || p.rows <= 0 || p.texels == nullptr) {
    std::fill(out.begin(), out.end(), 0u);
    return {};
  }
  split_rows(p.width, p.height, threads, [&p, &out](int first, int last) { fill_rows(p, out.data(), first, last); });
  const auto [lo, hi] = drawn_rows(p, p.rows);
  return {0, p.width, lo, hi};
}

DrawnTexels value_pixels(const ValuePixelsParams& p, std::vector<std::uint32_t>& out, int threads) {
  out.resize(std::size_t(std::max(p.width, 0)) * std::size_t(std::max(p.height, 0)));
  if (p.width <= 0 || p.height <= 0 || p.rows <= 0 || p.columns <= 0 || p.values == nullptr) {
    std::fill(out.begin(), out.end(), 0u);
    return {};
  }
  const auto& lut = colormap_lut(p.colormap);
  const std::size_t width = std::size_t(p.width);
  // Each pixel column's cell column, −1 outside: floor(a + b · (X + ½)) in float, as the shader.
  std::vector<int> column(width);
  for (std::size_t j = 0; j < width; ++j) {
    const int c = int(std::floor(p.column_a + p.column_b * (float(p.x0 + int(j)) + 0.5f)));
    column[j] = c >= 0 && c < p.columns ? c : -1;
  }
  const bool ranged = p.vmax > p.vmin;
  const float vmin = p.vmin, span = p.vmax - p.vmin;
  split_rows(p.width, p.height, threads, [&](int first, int last) {
    fill_lines(p, p.rows, out.data(), first, last, [&](int row, std::uint32_t* line) {
      const float* cells = p.values + std::size_t(row) * std::size_t(p.columns);
      for (std::size_t j = 0; j < width; ++j) {
        const float v = column[j] < 0 ? std::numeric_limits<float>::quiet_NaN() : cells[column[j]];
        if (std::isnan(v)) {
          line[j] = 0u;  // outside the cells, or a NaN cell: the shader discards both
          continue;
        }
        float t = ranged ? (v - vmin) / span : 0.5f;
        t = std::max(0.0f, std::min(t, 1.0f));
        line[j] = lut[std::size_t(int(t * float(kLutSize - 1) + 0.5f))];
      }
    });
  });
  // Cell columns follow x monotonically too: the drawn columns are one run.
  int lo = 0, hi = p.width;
  while (lo < hi && column[std::size_t(lo)] < 0) ++lo;
  while (hi > lo && column[std::size_t(hi - 1)] < 0) --hi;
  const auto [row_lo, row_hi] = drawn_rows(p, p.rows);
  return {lo, hi, row_lo, row_hi};
}

}  // namespace plot::detail
