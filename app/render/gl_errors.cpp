#include "gl_errors.hpp"

#include <epoxy/gl.h>

#include <atomic>

namespace render {
namespace {
std::atomic<std::uint64_t> g_error_count{0};
}

const char* gl_error_name(unsigned int code) {
  switch (code) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    case GL_STACK_UNDERFLOW: return "GL_STACK_UNDERFLOW";
    case GL_STACK_OVERFLOW: return "GL_STACK_OVERFLOW";
    default: return "GL_UNKNOWN_ERROR";
  }
}

std::vector<std::string> drain_gl_errors() {
  std::vector<std::string> errors;
  // Bounded: a lost context can return the same error forever.
  for (int i = 0; i < 64; ++i) {
    const GLenum e = glGetError();
    if (e == GL_NO_ERROR) break;
    errors.emplace_back(gl_error_name(e));
  }
  g_error_count += errors.size();
  return errors;
}

std::uint64_t gl_error_count() { return g_error_count.load(); }

}  // namespace render
