#include "ui/about_dialog.hpp"

#include <imgui.h>

#include <algorithm>
#include <string_view>

#include "plot/space_wrap.hpp"
#include "state/version.hpp"

namespace app {
namespace {

bool g_open_requested = false;
constexpr const char* kTitle = "About pe-viz";

}  // namespace

std::string about_text() {
  return std::string("pe-viz ") + kVersion +
         "\n"
         "An interactive visualizer of how transformers encode token positions: sinusoidal and learned tables, "
         "rotary embeddings (RoPE) with both pair layouts and every context-extension method, ALiBi and the "
         "relative-bias family, drawn live from real models' configurations and weights. Made for teaching (lessons, "
         "a projector preset, every number on screen) and for checking what a model's configuration really computes.\n"
         "Released under the MIT licence.";
}

void open_about_dialog() { g_open_requested = true; }

void draw_about_dialog() {
  // Opened here, not in the menu: a popup's ID belongs to the window stack it is opened in.
  if (g_open_requested) {
    ImGui::OpenPopup(kTitle);
    g_open_requested = false;
  }
  const ImVec2 centre = ImGui::GetMainViewport()->GetCenter();
  ImGui::SetNextWindowPos(centre, ImGuiCond_Appearing, {0.5f, 0.5f});
  ImGui::SetNextWindowSize({ImGui::GetFontSize() * 30.0f, 0.0f}, ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal(kTitle, nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
  const std::string text = about_text();
  bool first = true;
  for (std::size_t a = 0, b; a < text.size(); a = b + 1) {
    b = std::min(text.find('\n', a), text.size());
    const std::string_view paragraph(text.data() + a, b - a);
    if (first) {
      ImGui::TextUnformatted(paragraph.data(), paragraph.data() + paragraph.size());  // the name and version
      ImGui::Separator();
    } else {
      text_wrapped_unformatted(paragraph);
      ImGui::Spacing();
    }
    first = false;
  }
  if (ImGui::Button("Close") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

}  // namespace app
