#pragma once
// An ImGui context for tests that build frames without GL (layout, plot axes, view helpers):
// no .ini file, an 800 × 600 display, 60 Hz, the default font built. Destroyed with the
// object, so a failed assertion cannot leak it into the next test.
#include <imgui.h>

namespace pe_test {

class HeadlessImGui {
 public:
  HeadlessImGui() {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(800, 600);
    io.DeltaTime = 1.0f / 60.0f;
    io.Fonts->Build();
  }
  ~HeadlessImGui() { ImGui::DestroyContext(); }
  HeadlessImGui(const HeadlessImGui&) = delete;
  HeadlessImGui& operator=(const HeadlessImGui&) = delete;
};

}  // namespace pe_test
