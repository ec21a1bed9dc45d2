// plot_encoding_heatmap / plot_value_heatmap: rectangle, auto-fit, GPU draw call and the
// exact hover read-out.
#include <algorithm>
#include <cmath>

#include "colormap.hpp"
#include "encoding_sampling.hpp"
#include "heatmap_renderer.hpp"
#include "plot_state.hpp"
#include "rect_fills.hpp"

namespace plot {
namespace detail {
namespace {

PlotTransform plot_transform(const CurrentPlot& c) {
  const AxisState& x = c.state->x;
  const AxisState& y = c.state->y;
  PlotTransform t;
  t.bx = (c.x_spec.invert ? -1.0 : 1.0) * c.rect.GetWidth() / (x.max - x.min);
  t.ax = (c.x_spec.invert ? c.rect.Max.x : c.rect.Min.x) - x.min * t.bx;
  t.by = (c.y_spec.invert ? 1.0 : -1.0) * c.rect.GetHeight() / (y.max - y.min);
  t.ay = (c.y_spec.invert ? c.rect.Min.y : c.rect.Max.y) - y.min * t.by;
  return t;
}

// The heatmap rectangle in display coordinates, clamped a little outside the plot so
// extreme zoom does not produce huge floats (the scissor does the exact clipping).
void quad_rect(const CurrentPlot& c, const PlotTransform& t, double x0, double x1, double y0, double y1, ImVec2& min,
               ImVec2& max) {
  const double margin = 4.0;
  auto cx = [&](double v) { return static_cast<float>(std::clamp(v, c.rect.Min.x - margin, c.rect.Max.x + margin)); };
  auto cy = [&](double v) { return static_cast<float>(std::clamp(v, c.rect.Min.y - margin, c.rect.Max.y + margin)); };
  const double px0 = t.ax + t.bx * x0, px1 = t.ax + t.bx * x1;
  const double py0 = t.ay + t.by * y0, py1 = t.ay + t.by * y1;
  min = ImVec2(cx(std::min(px0, px1)), cy(std::min(py0, py1)));
  max = ImVec2(cx(std::max(px0, px1)), cy(std::max(py0, py1)));
}

bool linear_axes_or_message(CurrentPlot& c) {
  if (c.x_spec.scale == Scale::Linear && c.y_spec.scale == Scale::Linear) return true;
  // The shaders map pixels to cells affinely; a log heatmap would be wrong, not slow.
  corner_message(c, "heatmaps need linear axes");
  return false;
}

const char* theta_symbol() {
  // DejaVu has θ; ImGui's default font would show '?'.
  return ImGui::GetFont()->FindGlyphNoFallback(0x3B8) != nullptr ? "\xCE\xB8" : "theta";
}

void hover_encoding(CurrentPlot& c, const EncodingHeatmap& spec, const PlotTransform& t, double x0, double x1,
                    double y0, double y1) {
  if (!c.hovered) return;
  const double x = (c.mouse.x - t.ax) / t.bx, y = (c.mouse.y - t.ay) / t.by;
  if (x < x0 || x > x1 || y < y0 || y > y1) return;
  const int row = std::clamp(static_cast<int>(std::floor((y - y0) / (y1 - y0) * spec.rows)), 0, spec.rows - 1);
  // The framebuffer pixel under the mouse, mapped exactly as the shader maps it.
  const ImGuiIO& io = ImGui::GetIO();
  const float scale = io.DisplayFramebufferScale.x > 0 ? io.DisplayFramebufferScale.x : 1.0f;
  const double origin = ImGui::GetMainViewport()->Pos.x;
  const double column = std::floor((c.mouse.x - origin) * scale);
  const double dx = 1.0 / (scale * t.bx);
  const double center = (origin - t.ax) / t.bx + dx * (column + 0.5);
  const PixelSample s = encoding_pixel_sample(spec.function, spec.frequencies, row, center, dx, spec.pixel_mean);

  const int k = encoding_frequency_index(spec.function, row);
  const double theta = k < static_cast<int>(spec.frequencies.size()) ? spec.frequencies[k] : 0.0;
  const char* fn = encoding_row_is_cos(spec.function, row) ? "cos" : "sin";
  const char* th = theta_symbol();
  char line[256];
  if (s.mean)
    std::snprintf(line, sizeof line, "positions %s ... %s (pixel mean of ~%s)", format_value(s.a).c_str(),
                  format_value(s.b).c_str(), format_value(std::round(s.b - s.a)).c_str());
  else
    std::snprintf(line, sizeof line, "position %s", format_value(s.position).c_str());
  c.hover_lines.push_back({line, 0});
  if (spec.function == EncodingFunction::Sinusoidal)
    std::snprintf(line, sizeof line, "dim %d (pair %d, %s)   %s = %s rad/position", row, k, fn, th,
                  format_value(theta).c_str());
  else
    std::snprintf(line, sizeof line, "pair %d   %s = %s rad/position", row, th, format_value(theta).c_str());
  c.hover_lines.push_back({line, 0});
  std::snprintf(line, sizeof line, "%s%s(p\xC2\xB7%s) = %.6f", s.mean ? "mean " : "", fn, th, s.value);
  c.hover_lines.push_back({line, colormap_color(spec.colormap, colormap_position(s.value, spec.vmin, spec.vmax))});
}

void hover_values(CurrentPlot& c, const ValueHeatmap& spec, const PlotTransform& t) {
  if (!c.hovered) return;
  const double x = (c.mouse.x - t.ax) / t.bx, y = (c.mouse.y - t.ay) / t.by;
  const double fx = (x - spec.x0) / (spec.x1 - spec.x0), fy = (y - spec.y0) / (spec.y1 - spec.y0);
  if (fx < 0 || fx >= 1 || fy < 0 || fy >= 1) return;
  const int col = std::min(spec.columns - 1, static_cast<int>(fx * spec.columns));
  const int row_up = std::min(spec.rows - 1, static_cast<int>(fy * spec.rows));
  const int row = (spec.y_down != c.y_spec.invert) ? spec.rows - 1 - row_up : row_up;
  const float v = spec.values[static_cast<size_t>(row) * spec.columns + col];
  char line[160];
  std::snprintf(line, sizeof line, "row %d, column %d", row, col);
  c.hover_lines.push_back({line, 0});
  std::snprintf(line, sizeof line, "value = %s", format_value(v).c_str());
  c.hover_lines.push_back({line, colormap_color(spec.colormap, colormap_position(v, spec.vmin, spec.vmax))});
}

}  // namespace

// A heatmap writes every pixel of its quad, opaque (a value heatmap: unless a cell is NaN):
// the data area's fill need not clear what it covers. The pixels within two of its edges
// stay cleared: the scissor, like the backend's, truncates the clip rectangle's corner and
// size (up to two pixels lost at the right and top), and rows and columns round at the
// edges, so no pixel is left that neither draws.
void heatmap_covers_background(CurrentPlot& c, ImVec2 quad_min, ImVec2 quad_max) {
  if (c.background == nullptr || !heatmaps_drawable()) return;
  const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
  const float mx = 2.0f * std::max(1.0f, 1.0f / std::max(scale.x, 1e-3f)), my = 2.0f * std::max(1.0f, 1.0f / std::max(scale.y, 1e-3f));
  const ImVec2 clip_min = c.draw->GetClipRectMin(), clip_max = c.draw->GetClipRectMax();
  const ImVec2 min(std::max({quad_min.x, c.rect.Min.x, clip_min.x}) + mx, std::max({quad_min.y, c.rect.Min.y, clip_min.y}) + my);
  const ImVec2 max(std::min({quad_max.x, c.rect.Max.x, clip_max.x}) - mx, std::min({quad_max.y, c.rect.Max.y, clip_max.y}) - my);
  leave_out_of_fill(c.background, min, max);
}

}  // namespace detail

void plot_encoding_heatmap(const char* label, const EncodingHeatmap& spec) {
  using namespace detail;
  ensure_axes();
  CurrentPlot& c = current();
  if (spec.rows <= 0 || spec.frequencies.empty() || !std::isfinite(spec.x0) || !std::isfinite(spec.x1)) return;
  // Edges of the outer cells: positions and rows are cells centred on their coordinates.
  const double x0 = std::min(spec.x0, spec.x1) - 0.5, x1 = std::max(spec.x0, spec.x1) + 0.5;
  const bool rows_given = spec.y0 < spec.y1;
  const double row_step = rows_given && spec.rows > 1 ? (spec.y1 - spec.y0) / (spec.rows - 1) : 1.0;
  const double y0 = (rows_given ? spec.y0 : 0.0) - 0.5 * row_step;
  const double y1 = (rows_given ? spec.y1 : spec.rows - 1.0) + 0.5 * row_step;
  fit_x(x0, true), fit_x(x1, true), fit_y(y0, true), fit_y(y1, true);
  if (!linear_axes_or_message(c)) return;

  const PlotTransform t = plot_transform(c);
  EncodingDrawCall call;
  call.key = item_id(label);
  call.function = spec.function;
  call.frequencies.assign(spec.frequencies.begin(), spec.frequencies.end());
  call.rows = spec.rows;
  call.y0 = y0;
  call.y1 = y1;
  call.transform = t;
  call.colormap = spec.colormap;
  call.vmin = static_cast<float>(spec.vmin);
  call.vmax = static_cast<float>(spec.vmax);
  call.pixel_mean = spec.pixel_mean;
  // Several positions of one frequency, or several rows, vary unless every angle is 0.
  if (spec.x1 != spec.x0 && std::any_of(spec.frequencies.begin(), spec.frequencies.end(), [](float f) { return f != 0.0f; }))
    note_varied();
  quad_rect(c, t, x0, x1, y0, y1, call.quad_min, call.quad_max);
  c.draw->PushClipRect(c.rect.Min, c.rect.Max, true);
  heatmap_covers_background(c, call.quad_min, call.quad_max);
  queue_encoding_draw(c.draw, std::move(call));
  c.draw->PopClipRect();
  hover_encoding(c, spec, t, x0, x1, y0, y1);
}

void plot_value_heatmap(const char* label, const ValueHeatmap& spec) {
  using namespace detail;
  ensure_axes();
  CurrentPlot& c = current();
  if (spec.rows <= 0 || spec.columns <= 0 || spec.x1 == spec.x0 || spec.y1 == spec.y0) return;
  fit_x(spec.x0, true), fit_x(spec.x1, true), fit_y(spec.y0, true), fit_y(spec.y1, true);
  if (!linear_axes_or_message(c)) return;
  const ImGuiID key = item_id(label);
  std::string error;
  bool has_nan = false;
  if (!update_value_texture(key, spec.values, spec.rows, spec.columns, spec.version, error, has_nan)) {
    corner_message(c, error.c_str());
    return;
  }
  if (recording_drawn_plots()) note_values(spec.values);
  const PlotTransform t = plot_transform(c);
  ValueDrawCall call;
  call.key = key;
  call.rows = spec.rows;
  call.columns = spec.columns;
  call.x0 = spec.x0, call.x1 = spec.x1, call.y0 = spec.y0, call.y1 = spec.y1;
  // y_down is about the screen: on an inverted y axis the top already is y0.
  call.y_down = spec.y_down != c.y_spec.invert;
  call.transform = t;
  call.colormap = spec.colormap;
  call.vmin = static_cast<float>(spec.vmin);
  call.vmax = static_cast<float>(spec.vmax);
  quad_rect(c, t, std::min(spec.x0, spec.x1), std::max(spec.x0, spec.x1), std::min(spec.y0, spec.y1),
            std::max(spec.y0, spec.y1), call.quad_min, call.quad_max);
  c.draw->PushClipRect(c.rect.Min, c.rect.Max, true);
  if (!has_nan) heatmap_covers_background(c, call.quad_min, call.quad_max);
  queue_value_draw(c.draw, std::move(call));
  c.draw->PopClipRect();
  hover_values(c, spec, t);
}

}  // namespace plot
