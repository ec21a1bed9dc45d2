#include "ui/narrow_layout.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "views/view.hpp"

namespace app {
namespace {

constexpr float kNarrowMinEm = 24.0f;  // the width in em a narrow window keeps at any UI scale

// One button of a wrapping row (beside the previous one unless `first` or it would pass the
// right edge), coloured as a tab (the current one as the active tab).
bool chip(const char* label, bool current, bool first) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float width = ImGui::CalcTextSize(label).x + 2 * style.FramePadding.x;
  if (!first && ImGui::GetItemRectMax().x + style.ItemSpacing.x + width <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
    ImGui::SameLine();
  ImGui::PushStyleColor(ImGuiCol_Button, style.Colors[current ? ImGuiCol_TabActive : ImGuiCol_Tab]);
  ImGui::PushStyleColor(ImGuiCol_ButtonHovered, style.Colors[ImGuiCol_TabHovered]);
  ImGui::PushStyleColor(ImGuiCol_ButtonActive, style.Colors[ImGuiCol_TabActive]);
  const bool pressed = ImGui::Button(label);
  ImGui::PopStyleColor(3);
  return pressed;
}

}  // namespace

bool is_narrow_layout(float logical_width) { return logical_width > 0.0f && logical_width < kNarrowLayoutWidth; }

float usable_ui_scale(float ui_scale, float logical_width) {
  if (!is_narrow_layout(logical_width)) return ui_scale;
  // In quarter steps, as the UI scale slider sets it (390 px: 1×, 768: 2×).
  const float fits = std::floor(logical_width / (kNarrowMinEm * 16.0f) * 4.0f) / 4.0f;
  return std::max(1.0f, std::min(ui_scale, fits));
}

TouchStyle::TouchStyle(bool touch) {
  if (!touch) return;
  const float em = ImGui::GetFontSize();
  const ImGuiStyle& style = ImGui::GetStyle();
  // Frames 2.1 em tall with 0.5 em between rows: 42 logical pixels from one row to the next.
  // Widths stay (a phone's menu bar has no room to spare).
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, {style.FramePadding.x, std::max(style.FramePadding.y, 0.55f * em)});
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, {style.ItemSpacing.x, std::max(style.ItemSpacing.y, 0.5f * em)});
  ImGui::PushStyleVar(ImGuiStyleVar_ScrollbarSize, std::max(style.ScrollbarSize, 0.9f * em));
  ImGui::PushStyleVar(ImGuiStyleVar_GrabMinSize, std::max(style.GrabMinSize, 1.4f * em));
  pushed_ = 4;
}

TouchStyle::~TouchStyle() {
  if (pushed_) ImGui::PopStyleVar(pushed_);
}

float touch_button_height() { return 2.75f * ImGui::GetFontSize(); }

void draw_view_chooser(AppState& state) {
  static std::map<std::string, std::string> group_view;  // the view last shown per group
  const ViewInfo* current = find_view(state.view);
  if (!current) current = &all_views()[0];
  group_view[current->group] = current->name;
  ImGui::PushID("##view-chooser");
  ImGui::BeginGroup();
  bool first = true;
  for (const char* group : view_groups()) {
    const bool pressed = chip(group, group == std::string(current->group), first);
    first = false;
    if (!pressed) continue;
    const auto it = group_view.find(group);
    const std::vector<const ViewInfo*> views = views_in_group(group);
    if (it != group_view.end()) state.view = it->second;
    else if (!views.empty()) state.view = views.front()->name;
  }
  ImGui::EndGroup();
  // The chosen group's views on rows of their own, a little apart from the groups.
  ImGui::Dummy({0, ImGui::GetStyle().ItemSpacing.y * 0.5f});
  ImGui::BeginGroup();
  first = true;
  for (const ViewInfo* v : views_in_group(current->group)) {
    if (chip(v->title, v == current, first)) state.view = v->name;
    first = false;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s  (--view %s)", v->summary, v->name);
  }
  ImGui::EndGroup();
  ImGui::PopID();
}

}  // namespace app
