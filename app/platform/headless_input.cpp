#include "platform/headless_input.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <cfloat>

namespace app {

void install_headless_key_map() {
  // Only key codes: no GLFW call is made (glfw3.h's constants need no display).
  struct Entry {
    ImGuiKey_ key;
    int glfw;
  };
  static constexpr Entry kMap[] = {
      {ImGuiKey_Tab, GLFW_KEY_TAB},          {ImGuiKey_LeftArrow, GLFW_KEY_LEFT},   {ImGuiKey_RightArrow, GLFW_KEY_RIGHT},
      {ImGuiKey_UpArrow, GLFW_KEY_UP},       {ImGuiKey_DownArrow, GLFW_KEY_DOWN},   {ImGuiKey_PageUp, GLFW_KEY_PAGE_UP},
      {ImGuiKey_PageDown, GLFW_KEY_PAGE_DOWN}, {ImGuiKey_Home, GLFW_KEY_HOME},      {ImGuiKey_End, GLFW_KEY_END},
      {ImGuiKey_Insert, GLFW_KEY_INSERT},    {ImGuiKey_Delete, GLFW_KEY_DELETE},    {ImGuiKey_Backspace, GLFW_KEY_BACKSPACE},
      {ImGuiKey_Space, GLFW_KEY_SPACE},      {ImGuiKey_Enter, GLFW_KEY_ENTER},      {ImGuiKey_Escape, GLFW_KEY_ESCAPE},
      {ImGuiKey_KeyPadEnter, GLFW_KEY_KP_ENTER}, {ImGuiKey_A, GLFW_KEY_A},          {ImGuiKey_C, GLFW_KEY_C},
      {ImGuiKey_V, GLFW_KEY_V},              {ImGuiKey_X, GLFW_KEY_X},              {ImGuiKey_Y, GLFW_KEY_Y},
      {ImGuiKey_Z, GLFW_KEY_Z},
  };
  ImGuiIO& io = ImGui::GetIO();
  for (const Entry& e : kMap) io.KeyMap[e.key] = e.glfw;
  io.BackendPlatformName = "pe-viz headless";
}

void headless_frame_input(ImVec2 size) {
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = size;
  io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
  io.DeltaTime = 1.0f / 60.0f;
  // As a hidden GLFW window without focus reports: no pointer, no buttons held.
  io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  for (bool& down : io.MouseDown) down = false;
}

}  // namespace app
