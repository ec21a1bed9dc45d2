#include "platform/gl_context.hpp"

#include <stdexcept>

namespace app {

std::unique_ptr<GlContext> GlContext::create(const GlfwWindowRequest& request, GlBackend backend) {
  std::unique_ptr<GlContext> self(new GlContext());
  std::string egl_why, glfw_why;
  if (request.visible) {
    self->glfw_ = GlfwContext::create(request, glfw_why);
    if (self->glfw_) return self;
    throw std::runtime_error("cannot open a window (" + glfw_why +
                             "). No display? Run the GUI in a desktop session (or under `xvfb-run -a pe-viz`); "
                             "`pe-viz export`, `pe-viz bench`, `pe-viz --screenshot` and `pe-viz dump` need no display.");
  }
  if (backend != GlBackend::Glfw) {
    self->egl_ = EglContext::create(egl_why);
    if (self->egl_) return self;
    if (backend == GlBackend::Egl)
      throw std::runtime_error("PE_VIZ_GL=egl: no EGL context: " + egl_why +
                               ". Install libegl-mesa0 and libgl1-mesa-dri, or unset PE_VIZ_GL to allow a hidden window.");
  }
  self->glfw_ = GlfwContext::create(request, glfw_why);
  if (self->glfw_) return self;
  if (backend == GlBackend::Glfw)
    throw std::runtime_error("PE_VIZ_GL=glfw: no hidden window: " + glfw_why +
                             ". It needs a display (e.g. `xvfb-run -a pe-viz ...`); unset PE_VIZ_GL to render through EGL without one.");
  throw std::runtime_error("cannot create an OpenGL 3.3 context. EGL (no display needed): " + egl_why +
                           "; hidden GLFW window: " + glfw_why +
                           ". pe-viz renders offscreen through Mesa's EGL (Debian: libegl-mesa0, libgl1-mesa-dri; "
                           "llvmpipe needs no GPU), or a hidden window where a display exists.");
}

}  // namespace app
