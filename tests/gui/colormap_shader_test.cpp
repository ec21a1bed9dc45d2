// The heatmap shaders take each colormap as packed 8-bit points (plot::colormap_packed_rgb)
// and turn them back into floats (shaders/colormap.glsl): those floats must be the CPU
// table's, bit for bit, or a heatmap pixel could differ from what the float table gave.
// Read back through an RGBA32F target, for every point of every colormap.
#include <gtest/gtest.h>

#include <epoxy/gl.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "offscreen_frame.hpp"
#include "plot/colormap.hpp"
#include "render/shader_program.hpp"
#include "render/shader_sources.hpp"

namespace {

const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new pe_test::OffscreenWindow("colormap_shader_test"));

// Each fragment writes the control point its column names.
std::vector<float> shader_points(plot::Colormap c, int count) {
  const std::string fragment = std::string("#version 330 core\n") + std::string(render::shader_source("colormap.glsl")) +
                               "out vec4 frag_color;\n"
                               "void main() { frag_color = vec4(colormap_point(u_colormap[int(gl_FragCoord.x)]), 1.0); }\n";
  const render::ShaderProgram program(render::shader_source("heatmap.vert.glsl"), fragment, "heatmap.vert.glsl", "points");
  GLuint texture = 0, fbo = 0, vao = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, count, 1, 0, GL_RGBA, GL_FLOAT, nullptr);
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
  EXPECT_EQ(glCheckFramebufferStatus(GL_FRAMEBUFFER), GLenum(GL_FRAMEBUFFER_COMPLETE));
  glViewport(0, 0, count, 1);
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  program.use();
  const auto packed = plot::colormap_packed_rgb(c);
  glUniform1uiv(program.uniform("u_colormap"), count, packed.data());
  glUniform4f(program.uniform("u_rect_ndc"), -1.0f, -1.0f, 1.0f, 1.0f);
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  std::vector<float> rgba(std::size_t(count) * 4);
  glReadPixels(0, 0, count, 1, GL_RGBA, GL_FLOAT, rgba.data());
  glBindVertexArray(0);
  glDeleteVertexArrays(1, &vao);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  glDeleteTextures(1, &texture);
  return rgba;
}

std::uint32_t bits(float v) {
  std::uint32_t b = 0;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

TEST(ColormapShader, PackedPointsBecomeTheTablesFloatsExactly) {
  for (const plot::Colormap c : {plot::Colormap::RdBu, plot::Colormap::Viridis, plot::Colormap::Cividis}) {
    SCOPED_TRACE(plot::to_string(c));
    const auto table = plot::colormap_table(c);
    const auto packed = plot::colormap_packed_rgb(c);
    const int count = int(table.size());
    // The packing loses nothing: every component is k / 255 for the byte k it keeps.
    for (int i = 0; i < count; ++i)
      for (int k = 0; k < 3; ++k)
        EXPECT_EQ(bits(float((packed[std::size_t(i)] >> (16 - 8 * k)) & 255u) / 255.0f), bits(table[std::size_t(i)][std::size_t(k)]))
            << "point " << i << " component " << k;
    const std::vector<float> shader = shader_points(c, count);
    for (int i = 0; i < count; ++i)
      for (int k = 0; k < 3; ++k)
        EXPECT_EQ(bits(shader[std::size_t(i) * 4 + std::size_t(k)]), bits(table[std::size_t(i)][std::size_t(k)]))
            << "point " << i << " component " << k << ": shader " << shader[std::size_t(i) * 4 + std::size_t(k)] << ", table "
            << table[std::size_t(i)][std::size_t(k)];
  }
}

}  // namespace
