// A vertical colour bar: the colormap's exact piecewise-linear gradient, ticks, label.
#include <algorithm>
#include <string>
#include <vector>

#include "colormap.hpp"
#include "pixel_rules.hpp"
#include "plot_state.hpp"
#include "text_draw.hpp"

namespace plot {
namespace {

float auto_width(const std::vector<detail::Tick>& ticks, const std::string& text) {
  using namespace detail;
  float labels_w = 0.0f;
  for (const auto& tk : ticks) labels_w = std::max(labels_w, tick_label_size(tk).x);
  // margin + bar + tick + gap + labels + (gap + rotated label + margin)
  return em() * (0.3f + 1.1f + 0.3f + 0.25f) + labels_w + (text.empty() ? em() * 0.5f : em() * 2.3f);
}

}  // namespace

float colorbar_width(const char* label, double vmin, double vmax) {
  using namespace detail;
  // Widest labels come from the densest reasonable tick set.
  return auto_width(linear_ticks(std::min(vmin, vmax), std::max(vmin, vmax), 10), display_label(label));
}

void colorbar(const char* label, double vmin, double vmax, Colormap c, ImVec2 size) {
  using namespace detail;
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  if (window->SkipItems) return;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (size.y <= 0.0f) size.y = std::max(avail.y + size.y, em() * 6.0f);
  const ImVec2 pos = window->DC.CursorPos;

  // Line up with the plot beside it (same rows on screen) so the gradient spans exactly
  // the heatmap's height.
  const ImRect& plot_rect = last_plot_rect();
  float top = pos.y + em() * 0.5f, bottom = pos.y + size.y - em() * 0.5f;
  if (plot_rect.GetWidth() > 0 && plot_rect.Min.y >= pos.y - 1.0f && plot_rect.Max.y <= pos.y + size.y + 1.0f) {
    top = plot_rect.Min.y;
    bottom = plot_rect.Max.y;
  }
  const int max_labels = std::max(2, static_cast<int>((bottom - top) / (em() * 2.2f)));
  const auto ticks = linear_ticks(std::min(vmin, vmax), std::max(vmin, vmax), max_labels);
  const std::string text = display_label(label);
  const float tick = em() * 0.3f;
  const float bar_w = size.x > 0.0f ? std::min(em() * 1.1f, size.x * 0.35f) : em() * 1.1f;
  if (size.x <= 0.0f) size.x = std::max(auto_width(ticks, text), colorbar_width(label, vmin, vmax));

  const ImRect frame(pos, ImVec2(pos.x + size.x, pos.y + size.y));
  const ImGuiID id = window->GetID(label);
  ImGui::ItemSize(frame);
  if (!ImGui::ItemAdd(frame, id) || bottom <= top) return;
  const ImRect bar(ImVec2(frame.Min.x + em() * 0.3f, top), ImVec2(frame.Min.x + em() * 0.3f + bar_w, bottom));
  ImDrawList* d = window->DrawList;
  const Theme t = theme();

  const auto table = colormap_table(c);
  const int segments = static_cast<int>(table.size()) - 1;
  auto to_u32 = [](const Rgb& rgb) { return ImGui::ColorConvertFloat4ToU32(ImVec4(rgb[0], rgb[1], rgb[2], 1.0f)); };
  for (int i = 0; i < segments; ++i) {
    // Segment i spans t in [i, i+1]/segments; t = 1 (vmax) at the top.
    const float y_hi = bar.Max.y - bar.GetHeight() * static_cast<float>(i + 1) / segments;
    const float y_lo = bar.Max.y - bar.GetHeight() * static_cast<float>(i) / segments;
    const ImU32 upper = to_u32(table[i + 1]), lower = to_u32(table[i]);
    d->AddRectFilledMultiColor(ImVec2(bar.Min.x, y_hi), ImVec2(bar.Max.x, y_lo), upper, upper, lower, lower);
  }
  const float w = stroke(1.0f);
  detail::add_frame_rules(d, bar.Min, bar.Max, t.border, w);

  float label_right = bar.Max.x;
  for (const auto& tk : ticks) {
    const double f = colormap_position(tk.value, vmin, vmax);
    const float y = bar.Max.y - static_cast<float>(f) * bar.GetHeight();
    detail::add_horizontal_rule(d, y, bar.Max.x, bar.Max.x + tick, t.border, w);
    const ImVec2 ts = tick_label_size(tk);
    const float ly = std::clamp(y - ts.y * 0.5f, frame.Min.y, frame.Max.y - ts.y);
    draw_tick_label(d, ImVec2(bar.Max.x + tick + em() * 0.25f, ly), tk, t.text_dim);
    label_right = std::max(label_right, bar.Max.x + tick + em() * 0.25f + ts.x);
  }
  if (!text.empty())
    draw_vertical_text(d, ImVec2(std::min(label_right + em() * 1.0f, frame.Max.x - em() * 0.6f), bar.GetCenter().y),
                       text, t.text);

  if (ImGui::IsItemHovered() && bar.Contains(ImGui::GetIO().MousePos)) {
    const double f = (bar.Max.y - ImGui::GetIO().MousePos.y) / bar.GetHeight();
    ImGui::SetTooltip("%s = %s", text.empty() ? "value" : text.c_str(), format_value(vmin + f * (vmax - vmin)).c_str());
  }
}

}  // namespace plot
