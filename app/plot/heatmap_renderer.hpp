#pragma once
// The GL side of heatmaps. plot_*_heatmap queue a draw call and insert an ImDrawList
// callback; when ImGui's OpenGL3 backend reaches it during rendering, the callback binds
// our program and draws a quad into the heatmap rectangle, then the
// ImDrawCallback_ResetRenderState callback restores the backend's state.
#include <imgui.h>

#include <span>
#include <string>
#include <vector>

#include "plot.hpp"

namespace plot::detail {

// Display-coordinate transform of the plot the heatmap lives in:
// pixel_x = ax + bx · x, pixel_y = ay + by · y (linear axes, in double).
struct PlotTransform {
  double ax = 0, bx = 1, ay = 0, by = 1;
};

struct EncodingDrawCall {
  ImGuiID key = 0;
  EncodingFunction function = EncodingFunction::RopeCos;
  std::vector<float> frequencies;  // copied: the caller's span may be gone at render time
  int rows = 0;
  double y0 = 0, y1 = 1;
  ImVec2 quad_min, quad_max;       // display coordinates, already clamped near the plot
  PlotTransform transform;
  Colormap colormap = Colormap::RdBu;
  float vmin = -1, vmax = 1;
  bool pixel_mean = true;
};

struct ValueDrawCall {
  ImGuiID key = 0;
  int rows = 0, columns = 0;
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  bool y_down = false;
  ImVec2 quad_min, quad_max;
  PlotTransform transform;
  Colormap colormap = Colormap::Viridis;
  float vmin = 0, vmax = 1;
};

// Queue a draw into `draw` at the current position of its command list.
void queue_encoding_draw(ImDrawList* draw, EncodingDrawCall call);
void queue_value_draw(ImDrawList* draw, ValueDrawCall call);

// Uploads values (rows × columns, row-major) into the heatmap's R32F texture when the
// version or the size changed. Needs the GL context current. Returns false and sets
// `error` when the texture cannot hold the data. `has_nan`: whether the uploaded values
// hold a NaN (a cell the heatmap leaves undrawn), found once per upload.
bool update_value_texture(ImGuiID key, std::span<const float> values, int rows, int columns,
                          unsigned long long version, std::string& error, bool& has_nan);

struct CurrentPlot;
// The plot's data-area fill leaves out what an opaque heatmap queued next covers (its
// quad, in display coordinates): see plot_heatmap.cpp.
void heatmap_covers_background(CurrentPlot& c, ImVec2 quad_min, ImVec2 quad_max);

// Whether queued heatmaps will be drawn: the shaders are built (now, if they were not yet;
// needs the GL context current) and did not fail.
bool heatmaps_drawable();

}  // namespace plot::detail
