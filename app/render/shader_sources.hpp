#pragma once
// GLSL sources compiled into the binary (shaders/*.glsl embedded by pe_embed_files), so
// the program runs from any directory.
#include <string>
#include <string_view>
#include <vector>

namespace render {

// Text of shaders/<file_name>, e.g. "heatmap_encoding.frag.glsl".
// Throws std::runtime_error naming the file and the embedded ones when absent.
std::string_view shader_source(std::string_view file_name);
std::vector<std::string_view> shader_file_names();

// shader_source with every line `#include "other.glsl"` replaced by that embedded file
// (GLSL has no #include; shared pieces such as the colormap live in one file).
std::string shader_source_with_includes(std::string_view file_name);

// A shader source as the current build's GL compiles it: the `#version 330 core` line every
// shader starts with stays on the desktop; the browser build's WebGL 2 gets GLSL ES 3.00's
// version line and highp precision instead. ShaderProgram applies it to every source.
std::string shader_for_this_gl(std::string_view source);

}  // namespace render
