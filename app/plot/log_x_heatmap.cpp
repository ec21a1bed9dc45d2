#include "log_x_heatmap.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "heatmap_renderer.hpp"
#include "plot_state.hpp"

namespace plot {

void plot_value_heatmap_log_x(const char* label, const ValueHeatmap& spec) {
  using namespace detail;
  ensure_axes();
  CurrentPlot& c = current();
  if (spec.rows <= 0 || spec.columns <= 0 || !(spec.x0 > 0.0) || !(spec.x1 > spec.x0) || !std::isfinite(spec.x1) ||
      spec.y1 == spec.y0)
    return;
  fit_x(spec.x0, true), fit_x(spec.x1, true), fit_y(spec.y0, true), fit_y(spec.y1, true);
  if (c.x_spec.scale != Scale::Log || c.y_spec.scale != Scale::Linear) {
    corner_message(c, "this heatmap needs a log x axis and a linear y axis");
    return;
  }
  const ImGuiID key = item_id(label);
  std::string error;
  bool has_nan = false;
  if (!update_value_texture(key, spec.values, spec.rows, spec.columns, spec.version, error, has_nan)) {
    corner_message(c, error.c_str());
    return;
  }
  if (recording_drawn_plots()) note_values(spec.values);
  // The transform in u = log10 x, where the axis is affine.
  const AxisState& xs = c.state->x;
  const AxisState& ys = c.state->y;
  const double u_min = std::log10(xs.min), u_max = std::log10(xs.max);
  PlotTransform t;
  t.bx = (c.x_spec.invert ? -1.0 : 1.0) * c.rect.GetWidth() / (u_max - u_min);
  t.ax = (c.x_spec.invert ? c.rect.Max.x : c.rect.Min.x) - u_min * t.bx;
  t.by = (c.y_spec.invert ? 1.0 : -1.0) * c.rect.GetHeight() / (ys.max - ys.min);
  t.ay = (c.y_spec.invert ? c.rect.Min.y : c.rect.Max.y) - ys.min * t.by;
  ValueDrawCall call;
  call.key = key;
  call.rows = spec.rows;
  call.columns = spec.columns;
  call.x0 = std::log10(spec.x0), call.x1 = std::log10(spec.x1), call.y0 = spec.y0, call.y1 = spec.y1;
  call.y_down = spec.y_down != c.y_spec.invert;
  call.transform = t;
  call.colormap = spec.colormap;
  call.vmin = static_cast<float>(spec.vmin);
  call.vmax = static_cast<float>(spec.vmax);
  // The rectangle in pixels, kept a little outside the plot (the scissor clips exactly).
  const double margin = 4.0;
  const auto cx = [&](double v) { return static_cast<float>(std::clamp(v, double(c.rect.Min.x) - margin, double(c.rect.Max.x) + margin)); };
  const auto cy = [&](double v) { return static_cast<float>(std::clamp(v, double(c.rect.Min.y) - margin, double(c.rect.Max.y) + margin)); };
  const double px0 = t.ax + t.bx * call.x0, px1 = t.ax + t.bx * call.x1;
  const double py0 = t.ay + t.by * spec.y0, py1 = t.ay + t.by * spec.y1;
  call.quad_min = ImVec2(cx(std::min(px0, px1)), cy(std::min(py0, py1)));
  call.quad_max = ImVec2(cx(std::max(px0, px1)), cy(std::max(py0, py1)));
  c.draw->PushClipRect(c.rect.Min, c.rect.Max, true);
  if (!has_nan) heatmap_covers_background(c, call.quad_min, call.quad_max);
  queue_value_draw(c.draw, std::move(call));
  c.draw->PopClipRect();
}

}  // namespace plot
