#pragma once
// A GLFW window with an OpenGL 3.3 core context, visible (the GUI) or hidden (the fallback
// for offscreen work where EGL is missing). Needs a display server (X11, Wayland, Xvfb).
#include <memory>
#include <string>

struct GLFWwindow;

namespace app {

struct GlfwWindowRequest {
  int width = 1600, height = 1000;  // screen coordinates, before GLFW_SCALE_TO_MONITOR
  bool visible = true;
  const char* title = "pe-viz";
};

class GlfwContext {
 public:
  // The window with its context current; nullptr with `why` filled (GLFW's own error
  // text) when there is no display or no 3.3 core context.
  static std::unique_ptr<GlfwContext> create(const GlfwWindowRequest& request, std::string& why);
  ~GlfwContext();
  GlfwContext(const GlfwContext&) = delete;
  GlfwContext& operator=(const GlfwContext&) = delete;

  GLFWwindow* window() const { return window_; }
  const std::string& description() const { return description_; }  // e.g. "GLFW 3.3.8 X11 window (hidden)"

 private:
  GlfwContext() = default;
  GLFWwindow* window_ = nullptr;
  std::string description_;
};

}  // namespace app
