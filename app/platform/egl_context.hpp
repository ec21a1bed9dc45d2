#pragma once
// An OpenGL 3.3 core context with no window and no display server: EGL on Mesa's
// surfaceless platform (EGL_MESA_platform_surfaceless), made current with no surface
// (EGL_KHR_surfaceless_context). There is no default framebuffer: draw into an FBO.
#include <memory>
#include <string>

namespace app {

class EglContext {
 public:
  // The context, current on this thread; nullptr with `why` filled when EGL is missing
  // (no libEGL.so.1), lacks the extensions, or refuses a 3.3 core context.
  static std::unique_ptr<EglContext> create(std::string& why);
  ~EglContext();
  EglContext(const EglContext&) = delete;
  EglContext& operator=(const EglContext&) = delete;

  // e.g. "EGL 1.5 surfaceless (Mesa Project)"
  const std::string& description() const { return description_; }

 private:
  EglContext() = default;
  void* display_ = nullptr;  // EGLDisplay
  void* context_ = nullptr;  // EGLContext
  std::string description_;
};

}  // namespace app
