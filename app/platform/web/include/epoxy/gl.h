// The browser build's <epoxy/gl.h>: the app's GL code includes libepoxy's header on the
// desktop; in a browser the GL is WebGL 2, whose C API is OpenGL ES 3.0 (emscripten's
// <GLES3/gl3.h>), with no loader. Only the browser build's include path has this folder.
//
// What the desktop code uses beyond ES 3.0 comes from extensions WebGL 2 offers:
// timer queries (EXT_disjoint_timer_query_webgl2) for the frame benchmarks.
#pragma once
#include <GLES3/gl3.h>
#define GL_GLEXT_PROTOTYPES 1
#include <GLES2/gl2ext.h>

#ifndef GL_TIME_ELAPSED
#define GL_TIME_ELAPSED GL_TIME_ELAPSED_EXT
#endif
// (A macro, not a function: GLFW's header may bring GL/glext.h's own declaration along.)
#define glGetQueryObjectui64v glGetQueryObjectui64vEXT

// Desktop GL's error codes that ES 3.0 never reports (render/gl_errors names every code).
#ifndef GL_STACK_OVERFLOW
#define GL_STACK_OVERFLOW 0x0503
#endif
#ifndef GL_STACK_UNDERFLOW
#define GL_STACK_UNDERFLOW 0x0504
#endif

// libepoxy's queries, answered for WebGL 2: OpenGL ES 3.0, whose version number is not a
// desktop GL version (a check for "3.3 or later" is false here), and the extensions the
// page's context offers (emscripten names them GL_<WebGL name>).
#include <cstring>
inline int epoxy_gl_version() { return 30; }
inline bool epoxy_is_desktop_gl() { return false; }
inline bool epoxy_has_gl_extension(const char* name) {
  GLint count = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &count);
  for (GLint i = 0; i < count; ++i) {
    const char* e = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i)));
    if (e && std::strcmp(e, name) == 0) return true;
  }
  return false;
}
