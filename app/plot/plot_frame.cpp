// begin_plot / setup_axes / end_plot: layout, axis ranges, user interaction (zoom, pan,
// reset), grid, axes, title, legend and the hover read-out.
#include <algorithm>
#include <cmath>
#include <utility>

#include "rect_fills.hpp"
#include "pixel_rules.hpp"
#include "plot_state.hpp"
#include "text_draw.hpp"

namespace plot {
namespace detail {

extern CurrentPlot* g_current;

void draw_grid_rules(CurrentPlot& c, ImU32 major, ImU32 minor) {
  ImDrawList* d = c.draw;
  const float w = stroke(1.0f);
  for (const auto& tick : c.x_ticks) {
    const float x = x_to_px(tick.value);
    if (x < c.rect.Min.x || x > c.rect.Max.x) continue;
    add_vertical_rule(d, x, c.rect.Min.y, c.rect.Max.y, tick.major ? major : minor, w);
  }
  for (const auto& tick : c.y_ticks) {
    const float y = y_to_px(tick.value);
    if (y < c.rect.Min.y || y > c.rect.Max.y) continue;
    add_horizontal_rule(d, y, c.rect.Min.x, c.rect.Max.x, tick.major ? major : minor, w);
  }
}

ImU32 minor_grid_color(ImU32 grid) {
  return (grid & ~IM_COL32_A_MASK) | (((grid >> IM_COL32_A_SHIFT) & 0xff) / 2) << IM_COL32_A_SHIFT;
}

namespace {

CurrentPlot g_plot;  // one plot at a time (plots do not nest)

constexpr double kZoomPerWheelStep = 0.85;

double to_axis_space(Scale s, double v) { return s == Scale::Log ? std::log10(v) : v; }
double from_axis_space(Scale s, double v) { return s == Scale::Log ? std::pow(10.0, v) : v; }

// Makes a range drawable: finite, increasing, positive on log axes.
void sanitize(AxisState& a, Scale s) {
  if (!std::isfinite(a.min) || !std::isfinite(a.max)) a.min = 0.0, a.max = 1.0;
  if (s == Scale::Log) {
    if (a.max <= 0.0) a.min = 1.0, a.max = 10.0;
    if (a.min <= 0.0) a.min = a.max * 1e-3;
    if (a.max / a.min < 1.0 + 1e-9) a.min /= 2.0, a.max *= 2.0;
    a.min = std::max(a.min, 1e-300);
    a.max = std::min(a.max, 1e300);
  } else if (!(a.max - a.min > std::max(std::abs(a.min), std::abs(a.max)) * 1e-12)) {
    const double half = a.min == 0.0 ? 0.5 : std::abs(a.min) * 0.1;
    a.min -= half;
    a.max += half;
  }
}

void resolve_range(AxisState& a, const AxisSpec& spec) {
  if (spec.lock || !a.user_range) {
    if (spec.min < spec.max) {
      a.min = spec.min;
      a.max = spec.max;
    } else if (spec.auto_fit && a.has_fit) {
      a.min = a.fit_min;
      a.max = a.fit_max;
    } else if (!a.has_fit && spec.scale == Scale::Log && a.min <= 0.0) {
      a.min = 1.0;
      a.max = 10.0;
    }
    if (spec.lock) a.user_range = false;
  }
  sanitize(a, spec.scale);
}

// Turns the extents gathered this frame into next frame's auto-fit range.
void update_fit(AxisState& a, Scale s) {
  double lo = a.data_min, hi = a.data_max;
  if (lo <= hi) {  // padded 5% on each side so lines do not touch the frame
    const double l = to_axis_space(s, lo), h = to_axis_space(s, hi);
    const double pad = (h > l ? (h - l) : std::max(std::abs(l), 1.0)) * 0.05;
    lo = from_axis_space(s, l - pad);
    hi = from_axis_space(s, h + pad);
  }
  lo = std::min(lo, a.tight_min);
  hi = std::max(hi, a.tight_max);
  if (lo <= hi) {
    a.fit_min = lo;
    a.fit_max = hi;
    a.has_fit = true;
  }
  a.data_min = a.tight_min = std::numeric_limits<double>::infinity();
  a.data_max = a.tight_max = -std::numeric_limits<double>::infinity();
}

void zoom_axis(AxisState& a, Scale s, double anchor, double factor) {
  const double lo = to_axis_space(s, a.min), hi = to_axis_space(s, a.max), m = to_axis_space(s, anchor);
  a.min = from_axis_space(s, m - (m - lo) * factor);
  a.max = from_axis_space(s, m + (hi - m) * factor);
  a.user_range = true;
}

void pan_axis(AxisState& a, Scale s, double delta_fraction) {
  const double lo = to_axis_space(s, a.min), hi = to_axis_space(s, a.max);
  const double shift = (hi - lo) * delta_fraction;
  a.min = from_axis_space(s, lo + shift);
  a.max = from_axis_space(s, hi + shift);
  a.user_range = true;
}

// Which axes the mouse addresses: the data area means both, the strips holding the
// tick labels mean one axis.
int axes_under_mouse(const CurrentPlot& c, ImVec2 m) {
  if (!c.frame.Contains(m)) return kAxisNone;
  if (c.rect.Contains(m)) return kAxisBoth;
  if (m.y > c.rect.Max.y && m.x >= c.rect.Min.x && m.x <= c.rect.Max.x) return kAxisX;
  if (m.x < c.rect.Min.x && m.y >= c.rect.Min.y && m.y <= c.rect.Max.y) return kAxisY;
  return kAxisNone;
}

float tick_length() { return em() * 0.35f; }
float label_gap() { return em() * 0.3f; }

bool g_readable_titles = false;

// The title's lines and font size for a plot `width` wide (plot.hpp, set_readable_titles).
std::vector<std::string> title_lines(const std::string& title, float width, float& size) {
  ImFont* font = ImGui::GetFont();
  size = em() * 1.15f;
  if (title.empty()) return {};
  const float full = font->CalcTextSizeA(size, FLT_MAX, 0.0f, title.c_str()).x;
  if (full <= width || full <= 0.0f) return {title};
  const float floor = g_readable_titles ? em() : em() * 0.6f;
  size = std::max(floor, size * width / full);
  if (!g_readable_titles || font->CalcTextSizeA(size, FLT_MAX, 0.0f, title.c_str()).x <= width) return {title};
  std::vector<std::string> lines(1);
  std::size_t i = 0;
  while (i < title.size()) {
    const std::size_t end = std::min(title.find(' ', i + 1), title.size());
    const std::string word = title.substr(i, end - i);
    const std::string longer = lines.back() + word;
    if (!lines.back().empty() && font->CalcTextSizeA(size, FLT_MAX, 0.0f, longer.c_str()).x > width) {
      lines.push_back(word.substr(word.find_first_not_of(' ') == std::string::npos ? 0 : word.find_first_not_of(' ')));
    } else {
      lines.back() = longer;
    }
    i = end;
  }
  return lines;
}

// The band a title takes above the data: one line as before, more when wrapped.
float title_band(const std::vector<std::string>& lines, float size) {
  if (lines.empty()) return 0.0f;
  return std::max(em() * 1.15f, size * float(lines.size())) + label_gap();
}

float max_tick_label_width(const std::vector<Tick>& ticks) {
  float w = 0.0f;
  for (const auto& t : ticks)
    if (t.major) w = std::max(w, tick_label_size(t).x);
  return w;
}

std::vector<Tick> make_ticks(const AxisSpec& spec, const AxisState& a, int max_labels) {
  return spec.scale == Scale::Log ? log_ticks(a.min, a.max, max_labels, spec.format)
                                  : linear_ticks(a.min, a.max, max_labels, spec.format);
}

// X ticks whose labels do not overlap: start generous and thin out until they fit.
std::vector<Tick> fit_x_ticks(const CurrentPlot& c) {
  const float width = c.rect.GetWidth();
  int max_labels = std::max(2, static_cast<int>(width / (em() * 4.0f)));
  std::vector<Tick> ticks;
  for (int attempt = 0; attempt < 8; ++attempt) {
    ticks = make_ticks(c.x_spec, c.state->x, max_labels);
    const float need = max_tick_label_width(ticks) + em() * 1.2f;
    int labels = 0;
    for (const auto& t : ticks) labels += t.major ? 1 : 0;
    if (labels <= 2 || need * labels <= width) break;
    max_labels = std::max(2, std::min(max_labels - 1, static_cast<int>(width / need)));
  }
  return ticks;
}

// Lays out the data rectangle inside the frame from the tick labels' sizes.
void layout(CurrentPlot& c) {
  const float pad = em() * 0.5f;
  float top = c.frame.Min.y + pad, bottom = c.frame.Max.y - pad;
  float left = c.frame.Min.x + pad, right = c.frame.Max.x - pad;
  top += title_band(c.title_lines, c.title_size);
  if (!c.x_label.empty()) bottom -= em() + label_gap();
  if (!c.y_label.empty()) left += em() + label_gap();
  // X tick labels; a superscript makes them taller.
  bottom -= tick_length() + label_gap() + em() * (c.x_spec.scale == Scale::Log ? 1.25f : 1.0f);
  c.rect = ImRect(left, top, right, std::max(top + 1.0f, bottom));
  // Y ticks depend only on the height; their widest label decides the left margin.
  const int y_labels = std::max(2, static_cast<int>(c.rect.GetHeight() / (em() * 2.2f)));
  c.y_ticks = make_ticks(c.y_spec, c.state->y, y_labels);
  // A short plot (compare's sides, a curve under a heatmap at projector scale) can round up
  // to a step that leaves one label, e.g. only "0" on a cos axis: take the smallest finer
  // step whose labels still stand 1.3 lines apart.
  auto majors = [](const std::vector<Tick>& ticks) {
    std::vector<double> v;
    for (const Tick& t : ticks)
      if (t.major) v.push_back(t.value);
    return v;
  };
  const AxisState& ya = c.state->y;
  if (c.y_spec.scale == Scale::Linear && majors(c.y_ticks).size() < 2 && ya.max > ya.min) {
    for (int n = y_labels + 1; n <= y_labels + 6; ++n) {
      std::vector<Tick> more = make_ticks(c.y_spec, ya, n);
      const std::vector<double> v = majors(more);
      if (v.size() < 2) continue;
      if ((v[1] - v[0]) / (ya.max - ya.min) * c.rect.GetHeight() >= em() * 1.3f) c.y_ticks = std::move(more);
      break;
    }
  }
  c.rect.Min.x = std::min(c.rect.Max.x - 1.0f, left + max_tick_label_width(c.y_ticks) + tick_length() + label_gap());
  // Half of the last x label may hang past the data area on the right.
  c.rect.Max.x = std::max(c.rect.Min.x + 1.0f, right - em() * 0.6f);
}

// Widens one axis so a unit has the same length in x and y.
void apply_equal_aspect(CurrentPlot& c) {
  if (c.x_spec.scale != Scale::Linear || c.y_spec.scale != Scale::Linear) return;
  AxisState& x = c.state->x;
  AxisState& y = c.state->y;
  const double ux = (x.max - x.min) / c.rect.GetWidth(), uy = (y.max - y.min) / c.rect.GetHeight();
  if (ux < uy) {
    const double mid = 0.5 * (x.min + x.max), half = 0.5 * uy * c.rect.GetWidth();
    x.min = mid - half;
    x.max = mid + half;
  } else {
    const double mid = 0.5 * (y.min + y.max), half = 0.5 * ux * c.rect.GetHeight();
    y.min = mid - half;
    y.max = mid + half;
  }
}

// A wheel zoom keeps the value under the cursor in place. The re-layout after the zoom
// can move the data area (tick labels change width), so the anchor is re-applied to the
// final layout.
struct ZoomAnchor {
  bool active = false;
  double value = 0;   // plot value that must stay under the cursor
  double width = 0;   // new range width in axis space (log10 on log axes)
  float pixel = 0;    // cursor position
};
ZoomAnchor g_zoom_x, g_zoom_y;

void apply_anchor(const ZoomAnchor& z, AxisState& a, Scale s, bool invert, float lo_px, float hi_px, bool y) {
  if (!z.active) return;
  double t = (z.pixel - lo_px) / (hi_px - lo_px);
  if (y) t = 1.0 - t;  // pixel y grows downwards
  if (invert) t = 1.0 - t;
  const double v = to_axis_space(s, z.value);
  a.min = from_axis_space(s, v - t * z.width);
  a.max = from_axis_space(s, v - t * z.width + z.width);
}

void handle_input(CurrentPlot& c) {
  ImGuiIO& io = ImGui::GetIO();
  PlotState& s = *c.state;
  const int under = c.frame_hovered ? axes_under_mouse(c, io.MousePos) : kAxisNone;
  const bool x_free = !c.x_spec.lock, y_free = !c.y_spec.lock;

  g_zoom_x.active = g_zoom_y.active = false;
  if (under != kAxisNone && io.MouseWheel != 0.0f) {
    const double factor = std::pow(kZoomPerWheelStep, io.MouseWheel);
    if ((under & kAxisX) && x_free) {
      const double anchor = px_to_x(io.MousePos.x);
      zoom_axis(s.x, c.x_spec.scale, anchor, factor);
      g_zoom_x = {true, anchor, to_axis_space(c.x_spec.scale, s.x.max) - to_axis_space(c.x_spec.scale, s.x.min),
                  io.MousePos.x};
    }
    if ((under & kAxisY) && y_free) {
      const double anchor = px_to_y(io.MousePos.y);
      zoom_axis(s.y, c.y_spec.scale, anchor, factor);
      g_zoom_y = {true, anchor, to_axis_space(c.y_spec.scale, s.y.max) - to_axis_space(c.y_spec.scale, s.y.min),
                  io.MousePos.y};
    }
  }
  if (under != kAxisNone && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
    s.x.user_range = s.y.user_range = false;
    s.drag_axes = kAxisNone;
    resolve_range(s.x, c.x_spec);
    resolve_range(s.y, c.y_spec);
    return;
  }
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left) && under != kAxisNone) s.drag_axes = under;
  if (!c.held) s.drag_axes = kAxisNone;
  if (s.drag_axes != kAxisNone && (io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f)) {
    const double sx = c.x_spec.invert ? 1.0 : -1.0, sy = c.y_spec.invert ? -1.0 : 1.0;
    if ((s.drag_axes & kAxisX) && x_free) pan_axis(s.x, c.x_spec.scale, sx * io.MouseDelta.x / c.rect.GetWidth());
    if ((s.drag_axes & kAxisY) && y_free) pan_axis(s.y, c.y_spec.scale, sy * io.MouseDelta.y / c.rect.GetHeight());
  }
  sanitize(s.x, c.x_spec.scale);
  sanitize(s.y, c.y_spec.scale);
}

void draw_background_and_grid(CurrentPlot& c) {
  const Theme t = theme();
  ImDrawList* d = c.draw;
  c.background = add_opaque_rect(d, c.rect.Min, c.rect.Max, t.plot_bg);
  draw_grid_rules(c, t.grid, minor_grid_color(t.grid));
  c.grid_vtx_end = d->VtxBuffer.Size;
  c.grid_cmd_end = d->CmdBuffer.Size;
}

void draw_axes(CurrentPlot& c) {
  const Theme t = theme();
  ImDrawList* d = c.draw;
  const float w = stroke(1.0f);
  add_frame_rules(d, c.rect.Min, c.rect.Max, t.border, w);
  // X ticks and labels, clamped so end labels stay inside the frame.
  for (const auto& tick : c.x_ticks) {
    const float x = x_to_px(tick.value);
    if (x < c.rect.Min.x - 0.5f || x > c.rect.Max.x + 0.5f) continue;
    const float len = tick.major ? tick_length() : tick_length() * 0.55f;
    add_vertical_rule(d, x, c.rect.Max.y, c.rect.Max.y + len, t.border, w);
    if (!tick.major) continue;
    const ImVec2 size = tick_label_size(tick);
    float lx = x - size.x * 0.5f;
    lx = std::clamp(lx, c.frame.Min.x, c.frame.Max.x - size.x);
    draw_tick_label(d, ImVec2(lx, c.rect.Max.y + tick_length() + label_gap() * 0.6f), tick, t.text_dim);
  }
  for (const auto& tick : c.y_ticks) {
    const float y = y_to_px(tick.value);
    if (y < c.rect.Min.y - 0.5f || y > c.rect.Max.y + 0.5f) continue;
    const float len = tick.major ? tick_length() : tick_length() * 0.55f;
    add_horizontal_rule(d, y, c.rect.Min.x - len, c.rect.Min.x, t.border, w);
    if (!tick.major) continue;
    const ImVec2 size = tick_label_size(tick);
    float ly = std::clamp(y - size.y * 0.5f, c.frame.Min.y, c.frame.Max.y - size.y);
    draw_tick_label(d, ImVec2(c.rect.Min.x - tick_length() - label_gap() - size.x, ly), tick, t.text_dim);
  }
  if (!c.x_label.empty()) {
    const ImVec2 size = text_size(c.x_label);
    d->AddText(ImVec2(c.rect.GetCenter().x - size.x * 0.5f, c.frame.Max.y - em() * 0.5f - size.y), t.text,
               c.x_label.c_str());
  }
  if (!c.y_label.empty())
    draw_vertical_text(d, ImVec2(c.frame.Min.x + em() * 0.5f + em() * 0.5f, c.rect.GetCenter().y), c.y_label, t.text);
  if (!c.title.empty()) {
    ImFont* font = ImGui::GetFont();
    // A title wider than its plot's visible part (small panels at projector scales)
    // shrinks to fit rather than running into a neighbour or off the window (or wraps:
    // title_lines).
    const float left = std::max(c.frame.Min.x, d->GetClipRectMin().x);
    const float right = std::min(c.frame.Max.x, d->GetClipRectMax().x);
    float size = 0.0f;
    const std::vector<std::string> lines = title_lines(c.title, right - left, size);
    float y = c.frame.Min.y + em() * 0.4f;
    for (const std::string& line : lines) {
      const ImVec2 ts = font->CalcTextSizeA(size, FLT_MAX, 0.0f, line.c_str());
      const float x = std::max(left, std::min(right - ts.x, (left + right) * 0.5f - ts.x * 0.5f));
      d->AddText(font, size, ImVec2(x, y), t.text, line.c_str());
      y += size;
    }
  }
}

void draw_legend(CurrentPlot& c) {
  if (!c.options.legend || c.legend.empty()) return;
  const Theme t = theme();
  ImDrawList* d = c.draw;
  const float row = em() * 1.3f, swatch = em() * 1.6f, pad = em() * 0.45f;
  // Entries that fit the plot's height; the rest are summarised in a "+N more" row (small
  // panels at projector scales), and no legend at all when not even that fits.
  const std::size_t fits = std::size_t(std::max(0.0f, (c.rect.GetHeight() - em() - pad * 2 + (row - em())) / row));
  if (fits == 0) return;
  const bool overflow = c.legend.size() > fits;
  const std::size_t shown = overflow ? fits - 1 : c.legend.size();
  if (overflow && shown < 2) return;  // a legend of "+N more" alone would only hide the plot
  const std::string more = "+" + std::to_string(c.legend.size() - shown) + " more";
  float text_w = overflow ? text_size(more).x : 0.0f;
  for (std::size_t i = 0; i < shown; ++i) text_w = std::max(text_w, text_size(c.legend[i].label).x);
  const std::size_t rows = shown + (overflow ? 1 : 0);
  const ImVec2 size(pad * 2 + swatch + em() * 0.4f + text_w, pad * 2 + row * rows - (row - em()));
  if (size.x > c.rect.GetWidth() - em()) return;
  const ImVec2 max(c.rect.Max.x - em() * 0.5f, c.rect.Min.y + em() * 0.5f + size.y);
  const ImVec2 min(max.x - size.x, c.rect.Min.y + em() * 0.5f);
  d->AddRectFilled(min, max, t.legend_bg, em() * 0.2f);
  d->AddRect(min, max, t.grid, em() * 0.2f, 0, stroke(1.0f));
  if (overflow) d->AddText(ImVec2(min.x + pad + swatch + em() * 0.4f, min.y + pad + row * shown), t.text_dim, more.c_str());
  for (size_t i = 0; i < shown; ++i) {
    const auto& e = c.legend[i];
    const float y = min.y + pad + row * i;
    const float cy = y + em() * 0.5f;
    if (e.line)
      d->AddLine(ImVec2(min.x + pad, cy), ImVec2(min.x + pad + swatch, cy), e.color, data_stroke(2.5f));
    else
      d->AddRectFilled(ImVec2(min.x + pad + swatch * 0.2f, cy - em() * 0.35f),
                       ImVec2(min.x + pad + swatch * 0.8f, cy + em() * 0.35f), e.color);
    d->AddText(ImVec2(min.x + pad + swatch + em() * 0.4f, y), t.text, e.label.c_str());
  }
}

std::string axis_value_text(const AxisSpec& spec, double v) {
  return spec.format != nullptr ? format_string(spec.format, v) : format_value(v);
}

void draw_hover(CurrentPlot& c) {
  if (!c.hovered) return;
  const Theme t = theme();
  if (c.options.crosshair) {
    const float w = stroke(1.0f);
    const float x = c.mouse.x, y = c.mouse.y;
    // A halo in the plot background colour keeps the line visible on dark heatmap cells.
    const ImU32 halo = (t.plot_bg & ~IM_COL32_A_MASK) | (IM_COL32(0, 0, 0, 150) & IM_COL32_A_MASK);
    for (const auto& [color, width] : {std::pair{halo, w * 3.0f}, std::pair{t.crosshair, w}}) {
      add_vertical_rule(c.draw, x, c.rect.Min.y, c.rect.Max.y, color, width);
      add_horizontal_rule(c.draw, y, c.rect.Min.x, c.rect.Max.x, color, width);
    }
  }
  ImGui::BeginTooltip();
  const std::string xname = c.x_label.empty() ? "x" : c.x_label;
  const std::string yname = c.y_label.empty() ? "y" : c.y_label;
  ImGui::TextDisabled("%s = %s", xname.c_str(), axis_value_text(c.x_spec, px_to_x(c.mouse.x)).c_str());
  ImGui::TextDisabled("%s = %s", yname.c_str(), axis_value_text(c.y_spec, px_to_y(c.mouse.y)).c_str());
  if (!c.hover_lines.empty()) ImGui::Separator();
  for (const auto& line : c.hover_lines) {
    if (line.color != 0) {
      const float h = ImGui::GetTextLineHeight();
      const ImVec2 p = ImGui::GetCursorScreenPos();
      ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + h * 0.2f), ImVec2(p.x + h * 0.6f, p.y + h * 0.8f),
                                                line.color);
      ImGui::Dummy(ImVec2(h * 0.6f, h));
      ImGui::SameLine();
    }
    ImGui::TextUnformatted(line.text.c_str());
  }
  ImGui::EndTooltip();
}

}  // namespace

void ensure_axes() {
  CurrentPlot& c = current();
  if (!c.axes_ready) setup_axes({}, {});
}

}  // namespace detail

namespace {
float g_min_data_lines = kMinPlotDataLines;
}  // namespace

float min_plot_height(const PlotOptions& options) {
  using namespace detail;
  // As layout() takes them: padding, title, x ticks (log axes' superscripts), x label.
  float band = em() * 0.5f * 2.0f + tick_length() + label_gap() + em() * 1.25f + em() + label_gap();
  if (!display_label(options.title).empty()) band += em() * 1.15f + label_gap();
  return band + em() * g_min_data_lines;
}

void set_min_data_lines(float lines) { g_min_data_lines = std::max(0.0f, lines); }
float min_data_lines() { return g_min_data_lines; }

void set_readable_titles(bool on) { detail::g_readable_titles = on; }
bool readable_titles() { return detail::g_readable_titles; }

bool begin_plot(const char* id, ImVec2 size, const PlotOptions& options) {
  using namespace detail;
  IM_ASSERT(g_current == nullptr && "begin_plot() inside another plot: call end_plot() first");
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  if (window->SkipItems) return false;
  const ImGuiID plot_id = window->GetID(id);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (size.x <= 0.0f) size.x = std::max(avail.x + size.x, em() * 8.0f);
  if (size.y <= 0.0f) size.y = std::max(avail.y + size.y, em() * 6.0f);
  float title_size = 0.0f;
  std::vector<std::string> titles = title_lines(display_label(options.title), size.x, title_size);
  if (g_min_data_lines > 0.0f)
    size.y = std::max(size.y, min_plot_height(options) + title_band(titles, title_size) -
                                  title_band(titles.empty() ? titles : std::vector<std::string>(1), em() * 1.15f));
  const ImVec2 pos = window->DC.CursorPos;
  const ImRect frame(pos, ImVec2(pos.x + size.x, pos.y + size.y));
  ImGui::ItemSize(frame);
  if (!ImGui::ItemAdd(frame, plot_id)) return false;

  g_plot = CurrentPlot{};
  CurrentPlot& c = g_plot;
  c.id = plot_id;
  c.state = &state_for(plot_id);
  c.options = options;
  c.title = display_label(options.title);
  c.title_lines = std::move(titles);
  c.title_size = title_size;
  c.frame = frame;
  c.draw = window->DrawList;
  c.font_size = em();
  ImGui::ButtonBehavior(frame, plot_id, &c.frame_hovered, &c.held, ImGuiButtonFlags_MouseButtonLeft);
  // Keeps the wheel for zooming instead of scrolling the window.
  ImGui::SetItemUsingMouseWheel();
  g_current = &c;
  return true;
}

void setup_axes(const AxisSpec& x, const AxisSpec& y) {
  using namespace detail;
  CurrentPlot& c = current();
  IM_ASSERT(!c.axes_ready && "setup_axes() must come before any plot_* call and only once");
  c.x_spec = x;
  c.y_spec = y;
  c.x_label = display_label(x.label);
  c.y_label = display_label(y.label);
  c.axes_ready = true;
  PlotState& s = *c.state;
  resolve_range(s.x, x);
  resolve_range(s.y, y);
  layout(c);
  if (c.options.equal_aspect) apply_equal_aspect(c);
  handle_input(c);
  // Input changed the ranges: lay out again so ticks and labels match them; twice, since
  // re-anchoring a zoom can change the tick labels once more.
  for (int pass = 0; pass < 2; ++pass) {
    layout(c);
    apply_anchor(g_zoom_x, s.x, x.scale, x.invert, c.rect.Min.x, c.rect.Max.x, false);
    apply_anchor(g_zoom_y, s.y, y.scale, y.invert, c.rect.Min.y, c.rect.Max.y, true);
  }
  layout(c);
  if (c.options.equal_aspect) apply_equal_aspect(c);
  c.x_ticks = fit_x_ticks(c);

  const ImVec2 mouse = ImGui::GetIO().MousePos;
  c.mouse = mouse;
  c.hovered = c.frame_hovered && c.rect.Contains(mouse);
  draw_background_and_grid(c);
}

void abandon_plot() { detail::g_current = nullptr; }

namespace {

// plot_hline's labels, over every series, each on a veil of the plot's background so it
// reads over its own line and the curves.
void draw_line_labels(detail::CurrentPlot& c) {
  using namespace detail;
  if (c.line_labels.empty()) return;
  c.draw->PushClipRect(c.rect.Min, c.rect.Max, true);
  const ImU32 veil = (theme().plot_bg & ~IM_COL32_A_MASK) | (IM_COL32(0, 0, 0, 200) & IM_COL32_A_MASK);
  for (const auto& l : c.line_labels) {
    c.draw->AddRectFilled(ImVec2(l.rect.Min.x - em() * 0.15f, l.rect.Min.y), ImVec2(l.rect.Max.x + em() * 0.15f, l.rect.Max.y), veil,
                          em() * 0.2f);
    c.draw->AddText(l.rect.Min, l.color, l.text.c_str());
  }
  c.draw->PopClipRect();
}

}  // namespace

void end_plot() {
  using namespace detail;
  CurrentPlot& c = current();
  ensure_axes();
  draw_axes(c);
  draw_line_labels(c);
  draw_legend(c);
  draw_hover(c);
  update_fit(c.state->x, c.x_spec.scale);
  update_fit(c.state->y, c.y_spec.scale);
  record_drawn_plot(c);
  last_plot_rect() = c.rect;
  g_current = nullptr;
}

}  // namespace plot
