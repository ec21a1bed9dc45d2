#pragma once
// Which kind of OpenGL context an offscreen session gets. Only the platform layer reads
// this; everything above renders the same way whichever it is.
#include <string>

namespace app {

enum class GlBackend {
  Auto,  // EGL surfaceless (no display server), else a hidden GLFW window
  Egl,   // EGL on Mesa's surfaceless platform: no window, no X, no Wayland
  Glfw,  // a hidden GLFW window (needs a display, e.g. Xvfb)
};

const char* to_string(GlBackend backend);
// "auto", "egl" or "glfw" (case-insensitive); throws pe::InvalidArgument naming `parameter`.
GlBackend parse_gl_backend(const std::string& text, const char* parameter = "PE_VIZ_GL");
// The PE_VIZ_GL environment variable (unset or empty: Auto).
GlBackend gl_backend_from_environment();

}  // namespace app
