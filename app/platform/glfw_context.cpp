#include "platform/glfw_context.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace app {
namespace {

std::string g_glfw_error;

void on_glfw_error(int code, const char* description) {
  g_glfw_error = "GLFW error " + std::to_string(code) + ": " + (description ? description : "");
}

}  // namespace

std::unique_ptr<GlfwContext> GlfwContext::create(const GlfwWindowRequest& request, std::string& why) {
  glfwSetErrorCallback(on_glfw_error);
  g_glfw_error.clear();
  if (!glfwInit()) {
    why = g_glfw_error.empty() ? "glfwInit failed" : g_glfw_error;
    return nullptr;
  }
  glfwDefaultWindowHints();
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, request.visible ? GLFW_TRUE : GLFW_FALSE);
#ifndef __EMSCRIPTEN__
  // (A browser page's "window" is its canvas, sized by the page: platform/web/page.hpp.
  // emscripten's GLFW makes a WebGL 2 context whatever version is asked for.)
  // On X11 and Windows (screen coordinates are pixels) the window grows by the monitor's
  // content scale, at creation and when moved to another monitor; on macOS and Wayland the
  // framebuffer grows instead (GLFW 3.3 docs, "Window content scale").
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  // WM_CLASS matches StartupWMClass in the installed .desktop entry, so docks and task
  // bars put the window under pe-viz's icon.
  glfwWindowHintString(GLFW_X11_CLASS_NAME, "pe-viz");
  glfwWindowHintString(GLFW_X11_INSTANCE_NAME, "pe-viz");
#endif
  GLFWwindow* window = glfwCreateWindow(request.width, request.height, request.title, nullptr, nullptr);
  if (!window) {
    why = "no OpenGL 3.3 core window (" + (g_glfw_error.empty() ? std::string("glfwCreateWindow failed") : g_glfw_error) + ")";
    glfwTerminate();
    return nullptr;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(request.visible ? 1 : 0);
  std::unique_ptr<GlfwContext> self(new GlfwContext());
  self->window_ = window;
  int major = 0, minor = 0, revision = 0;
  glfwGetVersion(&major, &minor, &revision);
  self->description_ = "GLFW " + std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(revision) +
                       (request.visible ? " window" : " hidden window");
  return self;
}

GlfwContext::~GlfwContext() {
  glfwDestroyWindow(window_);
  glfwTerminate();
}

}  // namespace app
