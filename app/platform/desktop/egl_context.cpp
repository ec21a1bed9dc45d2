#include "platform/egl_context.hpp"

#include <dlfcn.h>
#include <epoxy/egl.h>

#include <cstdio>

namespace app {
namespace {

std::string egl_error_text() {
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%x", unsigned(eglGetError()));
  return hex;
}

}  // namespace

std::unique_ptr<EglContext> EglContext::create(std::string& why) {
  // libepoxy aborts the process when it cannot load libEGL, so look first. The handle
  // stays open: epoxy loads the same library and it must not be unloaded under it.
  static void* const libegl = dlopen("libEGL.so.1", RTLD_LAZY | RTLD_GLOBAL);
  if (!libegl) {
    why = "libEGL.so.1 not found (Debian: libegl1 and libegl-mesa0)";
    return nullptr;
  }
  // Client extensions are queried on EGL_NO_DISPLAY (EGL_EXT_client_extensions).
  if (!epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_platform_base") ||
      !epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless")) {
    why = "EGL has no surfaceless platform (EGL_MESA_platform_surfaceless; Debian: libegl-mesa0)";
    return nullptr;
  }
  std::unique_ptr<EglContext> self(new EglContext());
  EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  EGLint major = 0, minor = 0;
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, &major, &minor)) {
    why = "eglInitialize on the surfaceless platform failed (EGL error " + egl_error_text() + ")";
    return nullptr;
  }
  self->display_ = display;  // from here on the destructor terminates it
  if (!epoxy_has_egl_extension(display, "EGL_KHR_surfaceless_context")) {
    why = "EGL display lacks EGL_KHR_surfaceless_context";
    return nullptr;
  }
  if (!eglBindAPI(EGL_OPENGL_API)) {
    why = "EGL cannot bind desktop OpenGL (EGL error " + egl_error_text() + ")";
    return nullptr;
  }
  // The context never draws to an EGL surface, so any OpenGL-renderable config will do
  // (or none, where EGL_KHR_no_config_context allows it).
  const EGLint config_attributes[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint configs = 0;
  if (!eglChooseConfig(display, config_attributes, &config, 1, &configs) || configs < 1) {
    if (!epoxy_has_egl_extension(display, "EGL_KHR_no_config_context")) {
      why = "EGL has no OpenGL-renderable config";
      return nullptr;
    }
    config = EGL_NO_CONFIG_KHR;
  }
  // The same request the GLFW window makes: 3.3 core, forward-compatible.
  const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                       3,
                                       EGL_CONTEXT_MINOR_VERSION,
                                       3,
                                       EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                       EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                       EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE,
                                       EGL_TRUE,
                                       EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attributes);
  if (context == EGL_NO_CONTEXT) {
    why = "EGL refused an OpenGL 3.3 core context (EGL error " + egl_error_text() + ")";
    return nullptr;
  }
  self->context_ = context;
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    why = "eglMakeCurrent without a surface failed (EGL error " + egl_error_text() + ")";
    return nullptr;
  }
  const char* vendor = eglQueryString(display, EGL_VENDOR);
  self->description_ = "EGL " + std::to_string(major) + "." + std::to_string(minor) + " surfaceless (" +
                       (vendor ? vendor : "unknown vendor") + ")";
  return self;
}

EglContext::~EglContext() {
  if (!display_) return;
  eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (context_) eglDestroyContext(display_, context_);
  eglTerminate(display_);
  eglReleaseThread();
}

}  // namespace app
