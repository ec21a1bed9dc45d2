#include "platform/gl_backend.hpp"

#include <cstdlib>

#include "pe/base/errors.hpp"
#include "pe/base/text.hpp"

namespace app {

const char* to_string(GlBackend backend) {
  switch (backend) {
    case GlBackend::Egl: return "egl";
    case GlBackend::Glfw: return "glfw";
    case GlBackend::Auto: break;
  }
  return "auto";
}

GlBackend parse_gl_backend(const std::string& text, const char* parameter) {
  const std::string lower = pe::ascii_lower(text);
  if (lower == "auto") return GlBackend::Auto;
  if (lower == "egl") return GlBackend::Egl;
  if (lower == "glfw") return GlBackend::Glfw;
  throw pe::InvalidArgument(parameter, text, "egl, glfw or auto");
}

GlBackend gl_backend_from_environment() {
  const char* value = std::getenv("PE_VIZ_GL");
  if (!value || !*value) return GlBackend::Auto;
  return parse_gl_backend(value);
}

}  // namespace app
