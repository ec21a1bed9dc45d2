#include "shader_program.hpp"
#include "shader_sources.hpp"

#include <epoxy/gl.h>

#include <stdexcept>
#include <utility>

namespace render {
namespace {

std::string shader_log(GLuint shader) {
  GLint length = 0;
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<size_t>(length > 1 ? length : 1), '\0');
  glGetShaderInfoLog(shader, length, nullptr, log.data());
  log.resize(log.find('\0') == std::string::npos ? log.size() : log.find('\0'));
  return log;
}

std::string program_log(GLuint program) {
  GLint length = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<size_t>(length > 1 ? length : 1), '\0');
  glGetProgramInfoLog(program, length, nullptr, log.data());
  log.resize(log.find('\0') == std::string::npos ? log.size() : log.find('\0'));
  return log;
}

GLuint compile(GLenum stage, std::string_view written, std::string_view name) {
  const std::string source = shader_for_this_gl(written);
  const GLuint shader = glCreateShader(stage);
  const char* text = source.data();
  const GLint length = static_cast<GLint>(source.size());
  glShaderSource(shader, 1, &text, &length);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE) {
    const std::string log = shader_log(shader);
    glDeleteShader(shader);
    throw std::runtime_error("shader compile failed (" + std::string(name) + "):\n" + log);
  }
  return shader;
}

}  // namespace

ShaderProgram::ShaderProgram(std::string_view vertex_source, std::string_view fragment_source,
                             std::string_view vertex_name, std::string_view fragment_name) {
  const GLuint vs = compile(GL_VERTEX_SHADER, vertex_source, vertex_name);
  GLuint fs = 0;
  try {
    fs = compile(GL_FRAGMENT_SHADER, fragment_source, fragment_name);
  } catch (...) {
    glDeleteShader(vs);
    throw;
  }
  program_ = glCreateProgram();
  glAttachShader(program_, vs);
  glAttachShader(program_, fs);
  glLinkProgram(program_);
  // Shaders are owned by the program after linking; flag them for deletion now.
  glDetachShader(program_, vs);
  glDetachShader(program_, fs);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = GL_FALSE;
  glGetProgramiv(program_, GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    const std::string log = program_log(program_);
    glDeleteProgram(program_);
    program_ = 0;
    throw std::runtime_error("shader link failed (" + std::string(vertex_name) + " + " +
                             std::string(fragment_name) + "):\n" + log);
  }
}

ShaderProgram::~ShaderProgram() {
  if (program_ != 0) glDeleteProgram(program_);
}

ShaderProgram::ShaderProgram(ShaderProgram&& other) noexcept
    : program_(std::exchange(other.program_, 0)) {}

ShaderProgram& ShaderProgram::operator=(ShaderProgram&& other) noexcept {
  if (this != &other) {
    if (program_ != 0) glDeleteProgram(program_);
    program_ = std::exchange(other.program_, 0);
  }
  return *this;
}

void ShaderProgram::use() const { glUseProgram(program_); }

int ShaderProgram::uniform(const char* name) const { return glGetUniformLocation(program_, name); }

}  // namespace render
