#include "shader_sources.hpp"

#include <pe_shaders.hpp>

#include <stdexcept>
#include <string>

namespace render {

std::string_view shader_source(std::string_view file_name) {
  if (const auto* file = pe_shaders::find(file_name)) return file->text();
  std::string known;
  for (const auto& f : pe_shaders::files()) known += std::string(known.empty() ? "" : ", ") + f.name;
  throw std::runtime_error("no embedded shader '" + std::string(file_name) + "' (embedded: " + known + ")");
}

std::vector<std::string_view> shader_file_names() {
  std::vector<std::string_view> names;
  for (const auto& f : pe_shaders::files()) names.emplace_back(f.name);
  return names;
}

}  // namespace render
