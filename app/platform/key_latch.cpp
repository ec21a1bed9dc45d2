#include "platform/key_latch.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

namespace app {

static_assert(KeyLatch::kKeys == IM_ARRAYSIZE(ImGuiIO{}.KeysDown), "io.KeysDown's size changed (ImGui > 1.86?)");

void KeyLatch::on_key(int key, int action, int mods) {
  if (key < 0 || key >= kKeys) return;
  if (action == GLFW_PRESS) {
    down_[key] = true;
    pressed_[key] = true;
    mods_[key] = mods;
  } else if (action == GLFW_RELEASE) {
    down_[key] = false;
  }
}

void KeyLatch::apply(ImGuiIO& io) {
  for (int k = 0; k < kKeys; ++k) {
    if (forced_[k]) {  // shown down for one frame: back to what the keyboard says
      io.KeysDown[k] = down_[k];
      forced_[k] = false;
    }
  }
  // The backend sets the modifiers only when a key event arrives; after a forced frame
  // they must follow the keys again (its rule: either key of the pair down).
  bool ctrl = io.KeysDown[GLFW_KEY_LEFT_CONTROL] || io.KeysDown[GLFW_KEY_RIGHT_CONTROL];
  bool shift = io.KeysDown[GLFW_KEY_LEFT_SHIFT] || io.KeysDown[GLFW_KEY_RIGHT_SHIFT];
  bool alt = io.KeysDown[GLFW_KEY_LEFT_ALT] || io.KeysDown[GLFW_KEY_RIGHT_ALT];
  bool super = io.KeysDown[GLFW_KEY_LEFT_SUPER] || io.KeysDown[GLFW_KEY_RIGHT_SUPER];
  for (int k = 0; k < kKeys; ++k) {
    if (!pressed_[k]) continue;
    pressed_[k] = false;
    if (!io.KeysDown[k]) {  // released before this frame: show the press now
      io.KeysDown[k] = true;
      forced_[k] = true;
    }
    ctrl = ctrl || (mods_[k] & GLFW_MOD_CONTROL) != 0;
    shift = shift || (mods_[k] & GLFW_MOD_SHIFT) != 0;
    alt = alt || (mods_[k] & GLFW_MOD_ALT) != 0;
    super = super || (mods_[k] & GLFW_MOD_SUPER) != 0;
  }
  // A quick Ctrl+E: Ctrl may be up again by now, but E was pressed with it.
  io.KeyCtrl = ctrl;
  io.KeyShift = shift;
  io.KeyAlt = alt;
  io.KeySuper = super;
}

}  // namespace app
