#include <imgui.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <imgui_internal.h>  // the last frame's table (begin_fitting_table)

#include "plot/space_wrap.hpp"
#include "views/view.hpp"

namespace app {

std::string formatted(const char* format, ...) {
  char buf[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  return buf;
}

long long selected_pair(const AppState& s, const Derived& d) {
  return std::clamp<long long>(s.pair, 0, std::max<long long>(d.rope.inv_freq.size() - 1, 0));
}

void show_state_error(const Derived& derived) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
  text_wrapped("Cannot draw this view: %s", derived.error.c_str());
  ImGui::PopStyleColor();
  text_wrapped("Change the parameter named above; the other views keep working.");
}

namespace {
bool g_teaching_notes_hidden = false;
}  // namespace

TeachingNotesHidden::TeachingNotesHidden() : saved_(g_teaching_notes_hidden) { g_teaching_notes_hidden = true; }
TeachingNotesHidden::~TeachingNotesHidden() { g_teaching_notes_hidden = saved_; }

void teaching_note(const char* text) {
  if (g_teaching_notes_hidden) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  // The width teaching_note_height measures with, whatever wrap position a caller pushed.
  const float wrap = std::max(1.0f, ImGui::GetContentRegionAvail().x);
  const std::string lines = wrapped_at_spaces(text, wrap);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
  ImGui::TextUnformatted(lines.data(), lines.data() + lines.size());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

float teaching_note_height(const char* text) {
  if (g_teaching_notes_hidden) return 0.0f;
  const float wrap = std::max(1.0f, ImGui::GetContentRegionAvail().x);
  return wrapped_text_size(text, wrap).y + ImGui::GetStyle().ItemSpacing.y * 2.0f;
}

ImVec2 split_height(ImVec2 size, float top_fraction) {
  const float gap = ImGui::GetStyle().ItemSpacing.y;
  return {size.x, (size.y - gap) * top_fraction};
}

std::vector<float> stacked_plot_heights(float height, std::span<const float> weights, std::span<const bool> titled) {
  const std::size_t n = std::min(weights.size(), titled.size());
  const float spacing = ImGui::GetStyle().ItemSpacing.y;
  float total_weight = 0.0f, bands = spacing * float(n > 0 ? n - 1 : 0);
  std::vector<float> band(n);
  for (std::size_t k = 0; k < n; ++k) {
    // min_plot_height less its data lines: the decoration alone.
    const plot::PlotOptions o{.title = titled[k] ? "t" : nullptr};
    band[k] = plot::min_plot_height(o) - plot::min_data_lines() * ImGui::GetFontSize();
    bands += band[k];
    total_weight += weights[k];
  }
  const float data = std::max(0.0f, height - bands);
  std::vector<float> out(n);
  for (std::size_t k = 0; k < n; ++k) out[k] = band[k] + (total_weight > 0.0f ? data * weights[k] / total_weight : 0.0f);
  return out;
}

std::vector<float> two_plot_heights(float height, float top_share) {
  const float weights[] = {top_share, 1.0f - top_share};
  const bool titled[] = {true, true};
  return stacked_plot_heights(height, weights, titled);
}

std::vector<double> index_axis(long long n) {
  std::vector<double> v(static_cast<std::size_t>(std::max<long long>(n, 0)));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = double(i);
  return v;
}

std::vector<double> as_vector(const Eigen::ArrayXd& a) { return {a.data(), a.data() + a.size()}; }

std::string curve_window_title(const char* what, long long length) {
  if (length <= kCurveWindow) return what;
  return std::string(what) + " — positions 0 … " + std::to_string(kCurveWindow - 1) + " of " + std::to_string(length) +
         " (mouse wheel zooms out)";
}

namespace {

// Range of sin over the angle interval [a, b] (continuous): ±1 when a crest or trough lies inside.
void sin_range(double a, double b, double& lo, double& hi) {
  constexpr double two_pi = 2.0 * std::numbers::pi;
  if (b - a >= two_pi) {
    lo = -1.0;
    hi = 1.0;
    return;
  }
  lo = std::min(std::sin(a), std::sin(b));
  hi = std::max(std::sin(a), std::sin(b));
  // First crest (π/2 + 2πk) and trough (3π/2 + 2πk) at or after a.
  const double crest = std::numbers::pi / 2 + two_pi * std::ceil((a - std::numbers::pi / 2) / two_pi);
  const double trough = 3 * std::numbers::pi / 2 + two_pi * std::ceil((a - 3 * std::numbers::pi / 2) / two_pi);
  if (crest <= b) hi = 1.0;
  if (trough <= b) lo = -1.0;
}

}  // namespace

void plot_sinusoid_curve(const char* label, double freq, bool cosine, long long length, const plot::LineStyle& style) {
  const double phase = cosine ? std::numbers::pi / 2 : 0.0;  // cos x = sin(x + π/2)
  const double x0 = std::max(0.0, std::ceil(plot::visible_x_min()));
  const double x1 = std::min(double(length - 1), std::floor(plot::visible_x_max()));
  const double px0 = plot::to_pixels(plot::visible_x_min(), 0).x, px1 = plot::to_pixels(plot::visible_x_max(), 0).x;
  const int pixels = std::max(2, int(std::abs(px1 - px0)));
  if (x1 < x0) return;
  if (x1 - x0 + 1 <= pixels) {
    std::vector<double> xs, ys;
    for (double p = x0; p <= x1; p += 1.0) {
      xs.push_back(p);
      ys.push_back(std::sin(p * freq + phase));
    }
    plot::plot_line(label, xs, ys, style);
    return;
  }
  std::vector<double> xs(std::size_t(pixels) + 1), lo(xs.size()), hi(xs.size());
  const double step = (x1 - x0) / pixels;
  for (int k = 0; k <= pixels; ++k) {
    const double a = x0 + step * (k - 0.5), b = x0 + step * (k + 0.5);
    xs[std::size_t(k)] = x0 + step * k;
    sin_range(std::max(a, x0) * freq + phase, std::min(b, x1) * freq + phase, lo[std::size_t(k)], hi[std::size_t(k)]);
  }
  // Translucent, so overlapping envelopes of several curves stay readable.
  plot::LineStyle band = style;
  if (band.color != 0) band.color = (band.color & ~IM_COL32_A_MASK) | (IM_COL32(0, 0, 0, 110) & IM_COL32_A_MASK);
  plot::plot_shaded(label, xs, lo, hi, band);
}

bool is_narrow_view(const ViewContext& ctx, float width) { return ctx.narrow && width < kNarrowViewEm * ImGui::GetFontSize(); }

PlotColumns plot_columns(const ViewContext& ctx, float left_fraction) {
  PlotColumns c;
  c.stacked = is_narrow_view(ctx, ctx.size.x);
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  c.left_w = c.stacked ? ctx.size.x : (ctx.size.x - spacing) * left_fraction;
  c.right_w = c.stacked ? ctx.size.x : ctx.size.x - spacing - c.left_w;
  return c;
}

void PlotColumns::next() const {
  if (!stacked) ImGui::SameLine();
}

void text_line_wrapped(const std::string& text) {
  ImGui::TextUnformatted(wrapped_at_spaces(text, std::max(1.0f, ImGui::GetContentRegionAvail().x)).c_str());
}

bool begin_scrolling_table(const char* id, int columns, ImGuiTableFlags flags, float width) {
  const ImGuiTable* last = ImGui::TableFindByID(ImGui::GetID(id));
  flags = (flags & ~(ImGuiTableFlags_SizingMask_ | ImGuiTableFlags_NoHostExtendX)) | ImGuiTableFlags_SizingFixedFit |
          ImGuiTableFlags_ScrollX;
  // As tall as its rows were in the last frame, and the scrollbar under them (a first frame:
  // a line, until the rows are known).
  float rows_h = ImGui::GetFrameHeightWithSpacing();
  if (last && last->InnerWindow && last->InnerWindow != last->OuterWindow) rows_h = last->InnerWindow->ContentSize.y;
  else if (last) rows_h = last->OuterRect.GetHeight();
  const ImGuiStyle& style = ImGui::GetStyle();
  return ImGui::BeginTable(id, columns, flags, {width, rows_h + style.ScrollbarSize + 2.0f * style.CellPadding.y + 2.0f});
}

bool fitting_table_scrolls(const ViewContext& ctx, const char* id, float width) {
  const ImGuiTable* last = ctx.narrow ? ImGui::TableFindByID(ImGui::GetID(id)) : nullptr;
  return last && last->ColumnsAutoFitWidth > (width > 0.0f ? width : ImGui::GetContentRegionAvail().x) + 1.0f;
}

bool begin_fitting_table(const ViewContext& ctx, const char* id, int columns, ImGuiTableFlags flags, ImVec2 outer_size) {
  if (fitting_table_scrolls(ctx, id, outer_size.x)) return begin_scrolling_table(id, columns, flags, outer_size.x);
  return ImGui::BeginTable(id, columns, flags, outer_size);
}

void row_next(const ViewContext& ctx, float width) {
  if (ctx.narrow) same_line_if_fits(width);
  else ImGui::SameLine();
}

float fitted_width(const ViewContext& ctx, float width, const char* text, bool arrow) {
  if (!ctx.narrow) return width;
  const float need = ImGui::CalcTextSize(text).x + 2.0f * ImGui::GetStyle().FramePadding.x + (arrow ? ImGui::GetFrameHeight() : 0.0f);
  return std::min(std::max(width, need), ImGui::GetContentRegionAvail().x);
}

void same_line_if_fits(float width) {
  const float right = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width;
  if (right <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::SameLine();
}

float button_width(const char* label) { return ImGui::CalcTextSize(label).x + 2 * ImGui::GetStyle().FramePadding.x; }

void p_rope_slider(AppState& s, float width) {
  ImGui::SetNextItemWidth(width * plot::pixel_scale());
  float p = float(s.p_rope);
  if (ImGui::SliderFloat("p-RoPE: pairs kept", &p, 0.05f, 1.0f, "%.2f", ImGuiSliderFlags_AlwaysClamp)) s.p_rope = p;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("p_rope = %.4g: keep the fastest fraction of the rotary pairs, drop the slowest (frequency 0), as\n"
                      "p-RoPE does (Barbero et al., ICLR 2025; transformers' \"proportional\" rope type). The dropped\n"
                      "pairs add a constant to every score: they carry no position. 1 = off.",
                      s.p_rope);
}

}  // namespace app
