#pragma once
// The colours the one-pass heatmap shaders (shaders/heatmap_encoding.frag.glsl,
// heatmap_values.frag.glsl) give a block of framebuffer pixels, computed on the CPU for
// software renderers.
//
// Why: on llvmpipe the shader's per-pixel sine and colormap cost 10–13 ns a pixel with both
// cores rasterising (5.5–7.3 ms for a 0.55-megapixel heatmap at d = 1024); the same
// arithmetic in vectorised float on the CPU, split over two threads while the rasteriser
// waits for the frame's commands, plus an unblended copy of the result (~0.7 ns a pixel),
// is a third of that. The operations are the shader's, in the same order and in float: the
// row and column of each pixel are identical, colours agree to one 8-bit level (the sine
// is a degree-11 polynomial here and llvmpipe's own there; the colormap is a 16 384-entry
// table of the shader's interpolation). tests/gui compare the two paths.
#include <cstdint>
#include <vector>

#include "plot.hpp"

namespace plot::detail {

// What both kinds share: the block of framebuffer pixels, their rows, the colours.
struct PixelsTarget {
  int x0 = 0, y0 = 0, width = 0, height = 0;  // the block: columns x0 …, rows Y = y0 … (bottom-up)
  float row_a = 0, row_b = 0;                 // row = floor(row_a + row_b · (Y + ½))
  Colormap colormap = Colormap::RdBu;
  float vmin = -1, vmax = 1;
};

struct EncodingPixelsParams : PixelsTarget {
  const float* texels = nullptr;  // rows × (phase, step_hi, step_lo, factor): EncodingShaderRows
  int rows = 0;
  EncodingFunction function = EncodingFunction::RopeCos;
  bool cell_mode = false;
  float cell_offset = 0, cell_dx = 0;
  int column0 = 0;  // framebuffer column with n = 0
};

// The texels that hold the heatmap (the rest of the block is alpha 0): columns [x0, x1),
// rows [y0, y1) of the block; empty when x1 <= x0 or y1 <= y0.
struct DrawnTexels {
  int x0 = 0, x1 = 0, y0 = 0, y1 = 0;
  bool empty() const { return x1 <= x0 || y1 <= y0; }
};

// width × height RGBA8 texels (0xAABBGGRR as GL reads bytes R, G, B, A), bottom row first;
// alpha 0 where the shader discards (no heatmap row there). `threads` > 1 splits the rows.
DrawnTexels encoding_pixels(const EncodingPixelsParams& p, std::vector<std::uint32_t>& out, int threads = 2);

// A value heatmap's cells (row-major values, nearest cell per pixel centre). Value heatmaps
// take two passes on the GPU when rows are tall, and each switch of framebuffer makes
// llvmpipe finish the frame so far; here one copy draws them.
struct ValuePixelsParams : PixelsTarget {
  const float* values = nullptr;  // rows × columns, row-major
  int rows = 0, columns = 0;
  float column_a = 0, column_b = 0;  // column = floor(column_a + column_b · (X + ½))
};
// As encoding_pixels; alpha 0 outside the cells and on NaN cells (the shader discards both;
// NaN cells may lie inside the drawn texels).
DrawnTexels value_pixels(const ValuePixelsParams& p, std::vector<std::uint32_t>& out, int threads = 2);

}  // namespace plot::detail
