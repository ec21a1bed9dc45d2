#include "plot_state.hpp"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace plot {
namespace detail {

std::unordered_map<ImGuiID, PlotState>& states() {
  static std::unordered_map<ImGuiID, PlotState> map;
  return map;
}

namespace {

float g_pixel_scale = 1.0f;
float g_line_scale = 1.0f;

}  // namespace

CurrentPlot* g_current = nullptr;  // set by begin_plot (plot_frame.cpp)

CurrentPlot* current_or_null() { return g_current; }

CurrentPlot& current() {
  IM_ASSERT(g_current != nullptr && "plot:: call outside begin_plot()/end_plot()");
  return *g_current;
}

PlotState& state_for(ImGuiID id) { return states()[id]; }

namespace {
bool g_record = false;
std::vector<DrawnPlot> g_drawn;

template <typename T>
void note_range(std::span<const T> values) {
  if (!g_record) return;
  CurrentPlot* c = current_or_null();
  if (!c) return;
  for (const T v : values) {
    if (!std::isfinite(double(v))) continue;
    if (!c->has_data) c->data_lo = c->data_hi = double(v), c->has_data = true;
    c->data_lo = std::min(c->data_lo, double(v));
    c->data_hi = std::max(c->data_hi, double(v));
  }
  if (c->has_data && c->data_hi - c->data_lo > 1e-12 * std::max(1.0, std::abs(c->data_hi))) c->varied = true;
}
}  // namespace

bool recording_drawn_plots() { return g_record; }
void note_values(std::span<const double> values) { note_range(values); }
void note_values(std::span<const float> values) { note_range(values); }
void note_varied() {
  if (CurrentPlot* c = g_record ? current_or_null() : nullptr) c->varied = true;
}
void record_drawn_plot(const CurrentPlot& c) {
  if (!g_record) return;
  g_drawn.push_back({c.title, c.rect.Min, c.rect.Max, c.varied});
}

ImRect& last_plot_rect() {
  static ImRect rect(0, 0, 0, 0);
  return rect;
}

static double axis_t(const AxisState& a, Scale s, double v) {
  if (s == Scale::Log) {
    const double lo = std::log10(a.min), hi = std::log10(a.max);
    return (std::log10(v) - lo) / (hi - lo);
  }
  return (v - a.min) / (a.max - a.min);
}

static double axis_value(const AxisState& a, Scale s, double t) {
  if (s == Scale::Log) {
    const double lo = std::log10(a.min), hi = std::log10(a.max);
    return std::pow(10.0, lo + t * (hi - lo));
  }
  return a.min + t * (a.max - a.min);
}

// Keeps far-away points at sane float pixel coordinates so ImGui's tessellation does
// not produce garbage; the scissor clips them anyway.
static float clamp_px(double v) { return static_cast<float>(std::clamp(v, -1e7, 1e7)); }

float x_to_px(double x) {
  const auto& c = current();
  double t = axis_t(c.state->x, c.x_spec.scale, x);
  if (c.x_spec.invert) t = 1.0 - t;
  if (std::isnan(t)) t = -1e6;
  return clamp_px(c.rect.Min.x + t * c.rect.GetWidth());
}

float y_to_px(double y) {
  const auto& c = current();
  double t = axis_t(c.state->y, c.y_spec.scale, y);
  if (c.y_spec.invert) t = 1.0 - t;
  if (std::isnan(t)) t = -1e6;
  return clamp_px(c.rect.Max.y - t * c.rect.GetHeight());
}

double px_to_x(float px) {
  const auto& c = current();
  const double t = (px - c.rect.Min.x) / c.rect.GetWidth();
  return axis_value(c.state->x, c.x_spec.scale, c.x_spec.invert ? 1.0 - t : t);
}

double px_to_y(float py) {
  const auto& c = current();
  const double t = (c.rect.Max.y - py) / c.rect.GetHeight();
  return axis_value(c.state->y, c.y_spec.scale, c.y_spec.invert ? 1.0 - t : t);
}

static void fit(AxisState& a, Scale s, double v, bool tight) {
  if (!std::isfinite(v) || (s == Scale::Log && v <= 0.0)) return;
  double& lo = tight ? a.tight_min : a.data_min;
  double& hi = tight ? a.tight_max : a.data_max;
  lo = std::min(lo, v);
  hi = std::max(hi, v);
}

void fit_x(double v, bool tight) { fit(current().state->x, current().x_spec.scale, v, tight); }
void fit_y(double v, bool tight) { fit(current().state->y, current().y_spec.scale, v, tight); }

static ImU32 with_alpha(ImVec4 c, float alpha) {
  c.w *= alpha;
  return ImGui::ColorConvertFloat4ToU32(c);
}

Theme theme() {
  const ImGuiStyle& style = ImGui::GetStyle();
  const ImVec4 text = style.Colors[ImGuiCol_Text];
  const ImVec4 window = style.Colors[ImGuiCol_WindowBg];
  const bool dark = (window.x + window.y + window.z) < 1.5f;
  Theme t;
  t.text = with_alpha(text, 1.0f);
  t.text_dim = with_alpha(text, 0.75f);
  t.frame_bg = with_alpha(window, 0.0f);
  // A plot area slightly set off from the window, like a sheet of paper.
  t.plot_bg = dark ? IM_COL32(24, 26, 30, 255) : IM_COL32(255, 255, 255, 255);
  t.grid = with_alpha(text, dark ? 0.10f : 0.09f);
  t.border = with_alpha(text, 0.55f);
  t.crosshair = with_alpha(text, 0.45f);
  t.legend_bg = dark ? IM_COL32(32, 34, 40, 225) : IM_COL32(255, 255, 255, 225);
  return t;
}

float em() { return ImGui::GetFontSize(); }

void corner_message(CurrentPlot& c, const char* text) {
  c.draw->AddText(ImVec2(c.rect.Min.x + em() * 0.5f, c.rect.Min.y + em() * 0.5f), theme().text, text);
}
float stroke(float points) { return std::max(0.5f, points * g_pixel_scale); }
float data_stroke(float points) { return stroke(points * g_line_scale); }

std::string display_label(const char* label) {
  if (label == nullptr) return {};
  const char* hidden = std::strstr(label, "##");
  return hidden ? std::string(label, hidden) : std::string(label);
}

ImGuiID item_id(const char* label) { return ImHashStr(label, 0, current().id); }

void add_legend_entry(const char* label, ImU32 color, bool line) {
  auto& c = current();
  std::string text = display_label(label);
  if (text.empty()) return;
  for (const auto& e : c.legend)
    if (e.label == text) return;  // several calls for one series show once
  c.legend.push_back({std::move(text), color, line});
}

ImU32 resolve_color(ImU32 requested) {
  if (requested != 0) return requested;
  return series_color(current().next_color++);
}

}  // namespace detail

void clear_state() { detail::states().clear(); }

void set_record_drawn_plots(bool on) {
  detail::g_record = on;
  if (!on) detail::g_drawn.clear();
}

std::vector<DrawnPlot> take_drawn_plots() {
  std::vector<DrawnPlot> out;
  out.swap(detail::g_drawn);
  return out;
}

void set_pixel_scale(float scale) { detail::g_pixel_scale = std::max(0.1f, scale); }
float pixel_scale() { return detail::g_pixel_scale; }
void set_line_scale(float scale) { detail::g_line_scale = std::clamp(scale, 0.25f, 8.0f); }
float line_scale() { return detail::g_line_scale; }

ImU32 series_color(int k) {
  // Tableau 10 (2016 revision): distinguishable for common colour-vision deficiencies
  // and legible on both white and dark backgrounds.
  static constexpr ImU32 kPalette[] = {
      IM_COL32(78, 121, 167, 255),  IM_COL32(242, 142, 43, 255), IM_COL32(225, 87, 89, 255),
      IM_COL32(118, 183, 178, 255), IM_COL32(89, 161, 79, 255),  IM_COL32(237, 201, 72, 255),
      IM_COL32(176, 122, 161, 255), IM_COL32(255, 157, 167, 255), IM_COL32(156, 117, 95, 255),
      IM_COL32(186, 176, 172, 255)};
  constexpr int n = static_cast<int>(sizeof kPalette / sizeof kPalette[0]);
  return kPalette[((k % n) + n) % n];
}

bool is_plot_hovered() { return detail::current().hovered; }
ImVec2 mouse_plot_pos_pixels() { return detail::current().mouse; }
double mouse_x() { detail::ensure_axes(); return detail::px_to_x(detail::current().mouse.x); }
double mouse_y() { detail::ensure_axes(); return detail::px_to_y(detail::current().mouse.y); }
double visible_x_min() { detail::ensure_axes(); return detail::current().state->x.min; }
double visible_x_max() { detail::ensure_axes(); return detail::current().state->x.max; }
double visible_y_min() { detail::ensure_axes(); return detail::current().state->y.min; }
double visible_y_max() { detail::ensure_axes(); return detail::current().state->y.max; }

ImVec2 to_pixels(double x, double y) {
  detail::ensure_axes();
  return {detail::x_to_px(x), detail::y_to_px(y)};
}

void hover_text(const char* fmt, ...) {
  auto& c = detail::current();
  if (!c.hovered) return;
  char buffer[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buffer, sizeof buffer, fmt, args);
  va_end(args);
  c.hover_lines.push_back({buffer, 0});
}

}  // namespace plot
