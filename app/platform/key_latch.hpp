#pragma once
// Keeps every key press visible to Dear ImGui for at least one frame.
// ImGui 1.86 has no input queue: its GLFW backend writes io.KeysDown as events arrive, so
// a key pressed and released between two frames (a quick tap, or any tap while the GUI
// sleeps in glfwWaitEvents) is never seen down, and IsKeyPressed misses it. The latch
// records presses from GLFW's key callback (installed before ImGui's, which chains to it)
// and, at the start of the next frame, shows each pressed key down with the modifiers it
// was pressed with; the frame after, the key's real state returns.
#include <array>

struct ImGuiIO;

namespace app {

class KeyLatch {
 public:
  static constexpr int kKeys = 512;  // io.KeysDown's size in 1.86, GLFW's key codes fit

  // From GLFW's key callback: key code, GLFW_PRESS / GLFW_REPEAT / GLFW_RELEASE, mods bits.
  void on_key(int key, int action, int mods);
  // After the backend's NewFrame, before ImGui::NewFrame: shows latched presses.
  void apply(ImGuiIO& io);

 private:
  std::array<bool, kKeys> down_{};     // the key's real state, as the events left it
  std::array<bool, kKeys> pressed_{};  // pressed since the last frame
  std::array<bool, kKeys> forced_{};   // shown down last frame because of a latch
  std::array<int, kKeys> mods_{};      // modifiers held when it was pressed
};

}  // namespace app
