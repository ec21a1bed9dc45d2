// Line series, sampled functions, reference lines, bands, text, arrows and points.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <numbers>

#include "rect_fills.hpp"
#include "line_texture.hpp"
#include "marker_texture.hpp"
#include "path_simplify.hpp"
#include "plot_state.hpp"
#include "text_draw.hpp"

namespace plot {
namespace detail {
namespace {

// ImGui's 16-bit indices allow 64k vertices per primitive; an anti-aliased thick line
// costs ~4 vertices per point, so long polylines go out in chunks.
constexpr int kMaxPointsPerPolyline = 4000;

struct ClipScope {
  explicit ClipScope(const CurrentPlot& c) : draw(c.draw) { draw->PushClipRect(c.rect.Min, c.rect.Max, true); }
  ~ClipScope() { draw->PopClipRect(); }
  ImDrawList* draw;
};

void emit_polyline(ImDrawList* d, std::vector<ImVec2>& pts, ImU32 color, float thickness, bool dashed) {
  if (pts.size() < 2) return;
  simplify_polyline(pts);
  if (!dashed) {
    for (size_t start = 0; start + 1 < pts.size(); start += kMaxPointsPerPolyline - 1) {
      const int count = static_cast<int>(std::min<size_t>(kMaxPointsPerPolyline, pts.size() - start));
      add_polyline(d, pts.data() + start, count, color, thickness);
    }
    return;
  }
  // Dashes measured along the path so they stay even across segments; each dash is one
  // polyline (joined where it bends over several data points), drawn like a solid curve.
  // The dash state advances by at least a small step each iteration, so float rounding
  // cannot stall it.
  const float on = thickness * 4.0f, off = thickness * 2.5f, period = on + off;
  const float min_step = std::max(1e-3f, period * 1e-4f);
  float dash = 0.0f;  // position within the current on+off period
  static thread_local std::vector<ImVec2> piece;
  piece.clear();
  auto flush = [&] {
    if (piece.size() >= 2) add_polyline(d, piece.data(), int(piece.size()), color, thickness);
    piece.clear();
  };
  for (size_t i = 0; i + 1 < pts.size(); ++i) {
    const ImVec2 a = pts[i], b = pts[i + 1];
    const float len = std::hypot(b.x - a.x, b.y - a.y);
    if (!(len > 0.0f)) continue;
    if (len / period > 1e5f) {  // absurdly long (far off-screen): draw it solid
      flush();
      const ImVec2 ab[2] = {a, b};
      add_polyline(d, ab, 2, color, thickness);
      continue;
    }
    float s = 0.0f;
    while (len - s > 1e-4f) {
      const bool drawing = dash < on;
      const float run = std::max(min_step, std::min(len - s, drawing ? on - dash : period - dash));
      if (drawing) {
        const float t0 = s / len, t1 = std::min(1.0f, (s + run) / len);
        if (piece.empty()) piece.push_back(ImVec2(a.x + (b.x - a.x) * t0, a.y + (b.y - a.y) * t0));
        piece.push_back(ImVec2(a.x + (b.x - a.x) * t1, a.y + (b.y - a.y) * t1));
        if (piece.size() >= std::size_t(kMaxPointsPerPolyline)) {  // keep within 16-bit indices
          const ImVec2 last = piece.back();
          flush();
          piece.push_back(last);
        }
      }
      s += run;
      dash += run;
      if (dash >= on && !piece.empty()) flush();  // the dash ended inside this segment
      if (dash >= period) dash = std::fmod(dash, period);
    }
  }
  flush();
}

// Splits at NaN/inf so gaps in the data stay gaps.
void draw_path(const CurrentPlot& c, std::span<const double> xs, std::span<const double> ys, ImU32 color,
               const LineStyle& style) {
  const size_t n = std::min(xs.size(), ys.size());
  std::vector<ImVec2> pts;
  pts.reserve(std::min<size_t>(n, 1 << 16));
  const float thickness = data_stroke(style.thickness);
  for (size_t i = 0; i < n; ++i) {
    const bool bad = !std::isfinite(xs[i]) || !std::isfinite(ys[i]) ||
                     (c.x_spec.scale == Scale::Log && xs[i] <= 0) || (c.y_spec.scale == Scale::Log && ys[i] <= 0);
    if (bad) {
      emit_polyline(c.draw, pts, color, thickness, style.dashed);
      pts.clear();
      continue;
    }
    const ImVec2 p(x_to_px(xs[i]), y_to_px(ys[i]));
    // Several points on one pixel column add nothing but vertices: keep the extremes.
    if (pts.size() >= 2 && std::abs(pts.back().x - p.x) < 0.25f && std::abs(pts[pts.size() - 2].x - p.x) < 0.25f) {
      ImVec2& last = pts.back();
      const ImVec2 prev = pts[pts.size() - 2];
      const float lo = std::min(prev.y, last.y), hi = std::max(prev.y, last.y);
      if (p.y >= lo && p.y <= hi) continue;
    }
    pts.push_back(p);
  }
  emit_polyline(c.draw, pts, color, thickness, style.dashed);
}

void draw_markers(const CurrentPlot& c, std::span<const double> xs, std::span<const double> ys, ImU32 color,
                  float radius) {
  const size_t n = std::min(xs.size(), ys.size());
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(xs[i]) || !std::isfinite(ys[i])) continue;
    const ImVec2 p(x_to_px(xs[i]), y_to_px(ys[i]));
    if (!c.rect.Contains(p)) continue;
    add_marker(c.draw, p, radius, color);
  }
}

// The series' value at the mouse's x for the tooltip: the nearest sample in x.
void hover_series_value(CurrentPlot& c, const char* label, std::span<const double> xs, std::span<const double> ys,
                        ImU32 color) {
  if (!c.hovered || xs.empty()) return;
  const std::string name = display_label(label);
  if (name.empty()) return;
  const size_t n = std::min(xs.size(), ys.size());
  size_t best = n;
  float best_d = em() * 2.0f;  // only when the mouse is near the sample in x
  for (size_t i = 0; i < n; ++i) {
    const float d = std::abs(x_to_px(xs[i]) - c.mouse.x);
    if (d < best_d) best_d = d, best = i;
  }
  if (best == n) return;
  c.hover_lines.push_back({name + ": " + format_value(ys[best]) + "  (at " + format_value(xs[best]) + ")", color});
}

}  // namespace
}  // namespace detail

namespace {
void fit_points(std::span<const double> xs, std::span<const double> ys) {
  for (size_t i = 0; i < std::min(xs.size(), ys.size()); ++i) {
    detail::fit_x(xs[i]);
    detail::fit_y(ys[i]);
  }
}
}  // namespace

namespace {
// Lines and point clouds share fitting, legend and hover; they differ in what is drawn.
void plot_series(const char* label, std::span<const double> xs, std::span<const double> ys, const LineStyle& style,
                 bool line, bool markers, float marker_scale) {
  using namespace detail;
  ensure_axes();
  CurrentPlot& c = current();
  const ImU32 color = resolve_color(style.color);
  fit_points(xs, ys);
  note_values(ys);
  {
    ClipScope clip(c);
    if (line) draw_path(c, xs, ys, color, style);
    if (markers) draw_markers(c, xs, ys, color, data_stroke(style.thickness) * marker_scale);
  }
  if (style.in_legend) add_legend_entry(label, color, line);
  hover_series_value(c, label, xs, ys, color);
}
}  // namespace

void plot_line(const char* label, std::span<const double> xs, std::span<const double> ys, const LineStyle& style) {
  plot_series(label, xs, ys, style, /*line=*/true, style.markers, 1.6f);
}

void plot_points(const char* label, std::span<const double> xs, std::span<const double> ys, const LineStyle& style) {
  plot_series(label, xs, ys, style, /*line=*/false, /*markers=*/true, 1.8f);
}

void plot_function(const char* label, const std::function<double(double)>& f, const LineStyle& style) {
  using namespace detail;
  ensure_axes();
  CurrentPlot& c = current();
  const ImU32 color = resolve_color(style.color);
  // One sample per horizontal pixel (of the framebuffer, so exports stay smooth).
  const float fb_scale = std::max(1.0f, ImGui::GetIO().DisplayFramebufferScale.x);
  const int n = std::max(2, static_cast<int>(c.rect.GetWidth() * fb_scale) + 1);
  std::vector<double> xs(n), ys(n);
  for (int i = 0; i < n; ++i) {
    const float px = c.rect.Min.x + c.rect.GetWidth() * static_cast<float>(i) / static_cast<float>(n - 1);
    xs[i] = px_to_x(px);
    ys[i] = f(xs[i]);
    fit_y(ys[i]);
  }
  note_values(ys);
  {
    ClipScope clip(c);
    draw_path(c, xs, ys, color, style);
  }
  if (style.in_legend) add_legend_entry(label, color, true);
  if (c.hovered) {
    const std::string name = display_label(label);
    const double x = px_to_x(c.mouse.x);
    if (!name.empty()) c.hover_lines.push_back({name + ": " + format_value(f(x)), color});
  }
}

void plot_shaded(const char* label, std::span<const double> xs, std::span<const double> y_lo,
                 std::span<const double> y_hi, const LineStyle& style) {
  using namespace detail;
  ensure_axes();
  CurrentPlot& c = current();
  const ImU32 color = resolve_color(style.color);
  const size_t n = std::min({xs.size(), y_lo.size(), y_hi.size()});
  for (size_t i = 0; i < n; ++i) {
    fit_x(xs[i]);
    fit_y(y_lo[i]);
    fit_y(y_hi[i]);
  }
  note_values(y_lo.first(n));
  note_values(y_hi.first(n));
  {
    ClipScope clip(c);
    // One quad per step, no anti-aliased fringe: adjacent quads share edges exactly, and a
    // fringe would double the fill work for a band that covers many pixels.
    const ImDrawListFlags flags = c.draw->Flags;
    c.draw->Flags &= ~ImDrawListFlags_AntiAliasedFill;
    for (size_t i = 0; i + 1 < n; ++i) {
      if (!std::isfinite(y_lo[i]) || !std::isfinite(y_hi[i]) || !std::isfinite(y_lo[i + 1]) || !std::isfinite(y_hi[i + 1]))
        continue;
      const float x0 = x_to_px(xs[i]), x1 = x_to_px(xs[i + 1]);
      // At least one pixel tall so a flat stretch of the envelope stays visible.
      const float lo0 = y_to_px(y_lo[i]), hi0 = std::min(y_to_px(y_hi[i]), lo0 - 1.0f);
      const float lo1 = y_to_px(y_lo[i + 1]), hi1 = std::min(y_to_px(y_hi[i + 1]), lo1 - 1.0f);
      c.draw->AddQuadFilled(ImVec2(x0, lo0), ImVec2(x1, lo1), ImVec2(x1, hi1), ImVec2(x0, hi0), color);
    }
    c.draw->Flags = flags;
  }
  if (style.in_legend) add_legend_entry(label, color, false);
}

void plot_vline(const char* label, double x, const LineStyle& style) {
  using namespace detail;
  ensure_axes();
  CurrentPlot& c = current();
  const ImU32 color = style.color != 0 ? style.color : theme().text_dim;
  const float px = x_to_px(x);
  if (px < c.rect.Min.x - 1.0f || px > c.rect.Max.x + 1.0f) return;
  ClipScope clip(c);
  std::vector<ImVec2> line{ImVec2(px, c.rect.Min.y), ImVec2(px, c.rect.Max.y)};
  emit_polyline(c.draw, line, color, data_stroke(style.thickness), style.dashed);
  const std::string text = display_label(label);
  if (!text.empty()) {
    const ImVec2 size = text_size(text);
    // Label at the top, beside the line, flipped to the left near the right edge.
    float tx = px + em() * 0.3f;
    if (tx + size.x > c.rect.Max.x) tx = px - em() * 0.3f - size.x;
    c.draw->AddText(ImVec2(tx, c.rect.Min.y + em() * 0.3f), color, text.c_str());
  }
}

void plot_hline(const char* label, double y, const LineStyle& style) {
  using namespace detail;
  ensure_axes();
  CurrentPlot& c = current();
  const ImU32 color = style.color != 0 ? style.color : theme().text_dim;
  const float py = y_to_px(y);
  if (py < c.rect.Min.y - 1.0f || py > c.rect.Max.y + 1.0f) return;
  ClipScope clip(c);
  std::vector<ImVec2> line{ImVec2(c.rect.Min.x, py), ImVec2(c.rect.Max.x, py)};
  emit_polyline(c.draw, line, color, data_stroke(style.thickness), style.dashed);
  const std::string text = display_label(label);
  if (!text.empty()) {
    const ImVec2 size = text_size(text);
    float ty = py - size.y - em() * 0.15f;
    if (ty < c.rect.Min.y) ty = py + em() * 0.15f;
    // Thresholds close in value (Llama 3's L_orig / high_freq_factor, / low_freq_factor and
    // L_orig in a short plot) would print their labels over each other: a label that meets
    // an earlier one moves right of it, as long as it still fits the plot.
    float tx = c.rect.Min.x + em() * 0.4f;
    for (bool moved = true; moved;) {
      moved = false;
      for (const auto& placed : c.line_labels)
        if (ImRect(ImVec2(tx, ty), ImVec2(tx + size.x, ty + size.y)).Overlaps(placed.rect)) {
          tx = placed.rect.Max.x + em();
          moved = true;
        }
    }
    if (tx + size.x > c.rect.Max.x) tx = c.rect.Min.x + em() * 0.4f;
    c.line_labels.push_back({ImRect(ImVec2(tx, ty), ImVec2(tx + size.x, ty + size.y)), color, text});
  }
}

namespace detail {
namespace {

// `over` composited onto `under` (8-bit, as GL blends SRC_ALPHA, ONE_MINUS_SRC_ALPHA), with
// under's alpha kept.
ImU32 composite(ImU32 over, ImU32 under) {
  const float a = float((over >> IM_COL32_A_SHIFT) & 0xff) / 255.0f;
  ImU32 out = under & IM_COL32_A_MASK;
  for (const int shift : {IM_COL32_R_SHIFT, IM_COL32_G_SHIFT, IM_COL32_B_SHIFT}) {
    const float s = float((over >> shift) & 0xff), d = float((under >> shift) & 0xff);
    out |= ImU32(std::lround(s * a + d * (1.0f - a))) << shift;
  }
  return out;
}

// A translucent band over a data area that holds only its background and grid so far, drawn
// as the same picture without blending: the band's colour over the background as an opaque
// fill, then the grid rules inside the band again in their colours under the band. Blending a
// band of most of a plot cost llvmpipe ~2.3 ns a pixel (1–1.5 ms), a fill 0.4. Equal up to
// 8-bit rounding (a level). False when something else is drawn there already.
std::atomic<bool> opaque_bands_enabled{true};
std::atomic<long long> opaque_bands_drawn{0};

bool opaque_band(CurrentPlot& c, float a, float b, ImU32 color) {
  ImDrawList* d = c.draw;
  const bool only_grid_so_far = c.background != nullptr && d->VtxBuffer.Size == c.grid_vtx_end && d->CmdBuffer.Size == c.grid_cmd_end;
  if (!opaque_bands_enabled.load(std::memory_order_relaxed) || !only_grid_so_far) return false;
  const Theme t = theme();
  if ((t.plot_bg & IM_COL32_A_MASK) != IM_COL32_A_MASK) return false;
  // The pixels the blended quad covers: centres in [a, b) × the data area's rows. The grid's
  // clip rectangle takes exactly those pixels (the backend's scissor truncates to whole pixels).
  const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
  auto snap = [](float v, float s) { return std::ceil(v * s - 0.5f) / s; };
  const ImVec2 min(snap(a, scale.x), snap(c.rect.Min.y, scale.y)), max(snap(b, scale.x), snap(c.rect.Max.y, scale.y));
  if (max.x <= min.x || max.y <= min.y) return true;
  add_opaque_rect(d, min, max, composite(color, t.plot_bg));
  d->PushClipRect(min, max, true);
  draw_grid_rules(c, composite(color, t.grid), composite(color, minor_grid_color(t.grid)));
  d->PopClipRect();
  ++opaque_bands_drawn;
  return true;
}

}  // namespace
}  // namespace detail

void set_opaque_bands(bool enabled) { detail::opaque_bands_enabled = enabled; }
long long opaque_band_count() { return detail::opaque_bands_drawn.load(); }

void plot_xband(const char* label, double x0, double x1, ImU32 color) {
  using namespace detail;
  ensure_axes();
  CurrentPlot& c = current();
  float a = x_to_px(std::min(x0, x1)), b = x_to_px(std::max(x0, x1));
  a = std::max(a, c.rect.Min.x);
  b = std::min(b, c.rect.Max.x);
  const bool translucent = (color & IM_COL32_A_MASK) != IM_COL32_A_MASK;
  if (b > a && !(translucent && opaque_band(c, a, b, color)))
    add_translucent_rect(c.draw, ImVec2(a, c.rect.Min.y), ImVec2(b, c.rect.Max.y), color);
  add_legend_entry(label, color, false);
}

void plot_text(double x, double y, const char* text, ImU32 color, ImVec2 pixel_offset) {
  using namespace detail;
  ensure_axes();
  CurrentPlot& c = current();
  if (color == 0) color = theme().text;
  const float s = pixel_scale();
  const ImVec2 p(x_to_px(x) + pixel_offset.x * s, y_to_px(y) + pixel_offset.y * s);
  ClipScope clip(c);
  c.draw->AddText(p, color, text);
}

void plot_circle(const char* label, double radius, const LineStyle& style) {
  constexpr int kSegments = 96;
  std::vector<double> xs(kSegments + 1), ys(kSegments + 1);
  for (int k = 0; k <= kSegments; ++k) {
    xs[k] = radius * std::cos(2.0 * std::numbers::pi * k / kSegments);
    ys[k] = radius * std::sin(2.0 * std::numbers::pi * k / kSegments);
  }
  plot_line(label, xs, ys, style);
}

void plot_arrow(double x0, double y0, double x1, double y1, ImU32 color, float thickness) {
  using namespace detail;
  ensure_axes();
  CurrentPlot& c = current();
  fit_x(x0), fit_x(x1), fit_y(y0), fit_y(y1);
  const ImVec2 a(x_to_px(x0), y_to_px(y0)), b(x_to_px(x1), y_to_px(y1));
  const float w = data_stroke(thickness);
  const float len = std::hypot(b.x - a.x, b.y - a.y);
  if (len < 0.5f) return;
  note_varied();  // a hand of visible length is something to look at
  const ImVec2 dir((b.x - a.x) / len, (b.y - a.y) / len), normal(-dir.y, dir.x);
  // Head size follows the stroke but never exceeds half the arrow.
  const float head = std::min(w * 4.0f, len * 0.5f), half_width = head * 0.55f;
  const ImVec2 base(b.x - dir.x * head, b.y - dir.y * head);
  ClipScope clip(c);
  c.draw->AddLine(a, ImVec2(base.x + dir.x * 0.5f, base.y + dir.y * 0.5f), color, w);
  c.draw->AddTriangleFilled(b, ImVec2(base.x + normal.x * half_width, base.y + normal.y * half_width),
                            ImVec2(base.x - normal.x * half_width, base.y - normal.y * half_width), color);
}

}  // namespace plot
