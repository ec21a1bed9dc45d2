#include "ui/formula_strip.hpp"

#include <imgui.h>

#include <algorithm>

#include "plot/space_wrap.hpp"
#include "views/view.hpp"

namespace app {

std::vector<std::string> view_formula(const std::string& view, const AppState& s, const Derived& d) {
  const ViewInfo* info = find_view(view);
  if (!info || !d.error.empty()) return {};
  return info->formula(s, d);
}

float formula_strip_height(const std::vector<std::string>& lines, float width) {
  if (lines.empty()) return 0.0f;
  const ImGuiStyle& st = ImGui::GetStyle();
  // Long lines wrap (projector scales, narrow windows) rather than being cut off.
  const float wrap = std::max(1.0f, width - 2 * st.WindowPadding.x);
  float h = 2 * st.WindowPadding.y;
  for (const auto& line : lines)
    h += ImGui::CalcTextSize(wrapped_at_spaces(line, wrap).c_str(), nullptr, false, wrap).y + st.ItemSpacing.y;
  return h;  // the last line's spacing separates the strip from the view above
}

void draw_formula_strip(const std::vector<std::string>& lines, float height) {
  ImGui::BeginChild("##formula", {0, height - ImGui::GetStyle().ItemSpacing.y}, true,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::PushTextWrapPos(0.0f);
  const float wrap = std::max(1.0f, ImGui::GetContentRegionAvail().x);
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const std::string line = wrapped_at_spaces(lines[k], wrap);  // numbers stay whole
    if (k == 0) ImGui::TextUnformatted(line.c_str());
    else ImGui::TextDisabled("%s", line.c_str());
  }
  ImGui::PopTextWrapPos();
  ImGui::EndChild();
}

}  // namespace app
