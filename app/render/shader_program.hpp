#pragma once
// RAII GL shader program. Compile/link failures throw std::runtime_error carrying the
// driver's log and the stage/file name, so a broken shader says where it is broken.
#include <string>
#include <string_view>

namespace render {

class ShaderProgram {
 public:
  ShaderProgram() = default;
  // Sources are complete GLSL texts (with #version). Names only label error messages.
  ShaderProgram(std::string_view vertex_source, std::string_view fragment_source,
                std::string_view vertex_name = "vertex", std::string_view fragment_name = "fragment");
  ~ShaderProgram();
  ShaderProgram(ShaderProgram&& other) noexcept;
  ShaderProgram& operator=(ShaderProgram&& other) noexcept;
  ShaderProgram(const ShaderProgram&) = delete;
  ShaderProgram& operator=(const ShaderProgram&) = delete;

  unsigned int id() const { return program_; }
  bool valid() const { return program_ != 0; }
  void use() const;
  // -1 when the uniform is absent or optimised away (GL ignores -1 in glUniform*).
  int uniform(const char* name) const;

 private:
  unsigned int program_ = 0;
};

}  // namespace render
