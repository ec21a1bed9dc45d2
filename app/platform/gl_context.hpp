#pragma once
// Chooses and makes the OpenGL 3.3 core context: a GLFW window for the GUI; for offscreen
// work (export, bench, --screenshot, tests) EGL surfaceless first — no display server —
// and a hidden GLFW window only where EGL is missing or fails (or PE_VIZ_GL says so).
#include <memory>
#include <string>

#include "platform/egl_context.hpp"
#include "platform/gl_backend.hpp"
#include "platform/glfw_context.hpp"

namespace app {

class GlContext {
 public:
  // `backend` applies to hidden requests only (a visible window is always GLFW); Auto
  // tries EGL, then GLFW. Throws std::runtime_error naming each failed attempt and what
  // to install or run.
  static std::unique_ptr<GlContext> create(const GlfwWindowRequest& request, GlBackend backend);

  GlBackend backend() const { return egl_ ? GlBackend::Egl : GlBackend::Glfw; }
  GLFWwindow* glfw_window() const { return glfw_ ? glfw_->window() : nullptr; }  // null under EGL
  const std::string& description() const { return egl_ ? egl_->description() : glfw_->description(); }

 private:
  GlContext() = default;
  std::unique_ptr<EglContext> egl_;
  std::unique_ptr<GlfwContext> glfw_;
};

}  // namespace app
