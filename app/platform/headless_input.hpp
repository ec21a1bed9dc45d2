#pragma once
// ImGui's platform side for sessions with no window to read input from (EGL, or a hidden
// GLFW window rendering offscreen): what imgui_impl_glfw would do, minus the window.
// Both offscreen backends use this, so they lay out identical frames.
#include <imgui.h>

namespace app {

// io.KeyMap as the GLFW backend sets it (GLFW key codes index io.KeysDown), so a key a
// test presses as io.KeysDown[GLFW_KEY_F1] means the same with or without a window.
void install_headless_key_map();

// Per-frame input: display of `size` pixels (framebuffer scale 1), a fixed 1/60 s step
// (frames are not real time, and the same frames must lay out the same), no mouse.
void headless_frame_input(ImVec2 size);

}  // namespace app
