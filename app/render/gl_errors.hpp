#pragma once
// OpenGL error collection. glGetError() only reports a flag per error kind, so callers
// drain it at known points (after a frame, after an export) and tests assert it stays 0.
#include <cstdint>
#include <string>
#include <vector>

namespace render {

// Pops every pending GL error, returns their names (e.g. "GL_INVALID_ENUM") and adds
// them to the process-wide count.
std::vector<std::string> drain_gl_errors();
// Number of GL errors seen by drain_gl_errors() since the process started.
std::uint64_t gl_error_count();
const char* gl_error_name(unsigned int code);

}  // namespace render
