#include "platform/egl_context.hpp"

namespace app {

// A page's one GL context is its canvas's WebGL 2 context (platform/glfw_context): there is
// no EGL, and no second context for offscreen work — exports draw into framebuffers of it.
std::unique_ptr<EglContext> EglContext::create(std::string& why) {
  why = "a browser page has no EGL (its one context is the canvas's WebGL 2)";
  return nullptr;
}

EglContext::~EglContext() = default;

}  // namespace app
