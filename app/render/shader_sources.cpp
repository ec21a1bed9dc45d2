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

std::string shader_source_with_includes(std::string_view file_name) {
  const std::string_view text = shader_source(file_name);
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    constexpr std::string_view kInclude = "#include \"";
    if (line.substr(0, kInclude.size()) == kInclude && line.size() > kInclude.size() + 1 && line.back() == '"') {
      // One level is enough for our shaders; nested includes would be a design smell here.
      out += shader_source(line.substr(kInclude.size(), line.size() - kInclude.size() - 1));
      if (out.empty() || out.back() != '\n') out += '\n';
    } else {
      out.append(line);
      out += '\n';
    }
    start = end + 1;
  }
  return out;
}

namespace {

// The shaders are written once, in GLSL 3.30 core. Where the GL is OpenGL ES 3.0 (WebGL 2 in
// the browser build, which defines PE_VIZ_GLSL_ES) their version line becomes GLSL ES 3.00's
// with full precision: ES's fragment shaders have no default float precision, and samplers
// default to lowp, which would round the R32F values the heatmaps fetch.
constexpr std::string_view kDesktopVersion = "#version 330 core\n";
#ifdef PE_VIZ_GLSL_ES
constexpr std::string_view kThisGlVersion = "#version 300 es\n"
                                            "precision highp float;\n"
                                            "precision highp int;\n"
                                            "precision highp sampler2D;\n";
#else
constexpr std::string_view kThisGlVersion = kDesktopVersion;
#endif

}  // namespace

std::string shader_for_this_gl(std::string_view source) {
  if (source.substr(0, kDesktopVersion.size()) != kDesktopVersion) return std::string(source);
  return std::string(kThisGlVersion) + std::string(source.substr(kDesktopVersion.size()));
}

std::vector<std::string_view> shader_file_names() {
  std::vector<std::string_view> names;
  for (const auto& f : pe_shaders::files()) names.emplace_back(f.name);
  return names;
}

}  // namespace render
