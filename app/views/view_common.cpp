#include <imgui.h>

#include "views/view.hpp"

namespace app {

void show_state_error(const Derived& derived) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
  ImGui::TextWrapped("Cannot draw this view: %s", derived.error.c_str());
  ImGui::PopStyleColor();
  ImGui::TextWrapped("Change the parameter named above; the other views keep working.");
}

void teaching_note(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  ImGui::TextWrapped("%s", text);
  ImGui::PopStyleColor();
}

ImVec2 split_height(ImVec2 size, float top_fraction) {
  const float gap = ImGui::GetStyle().ItemSpacing.y;
  return {size.x, (size.y - gap) * top_fraction};
}

}  // namespace app
