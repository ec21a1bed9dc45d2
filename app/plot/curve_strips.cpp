#include "curve_strips.hpp"

#include <epoxy/gl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <exception>
#include <optional>
#include <vector>

#include "../render/gl_generation.hpp"
#include "../render/shader_program.hpp"
#include "../render/shader_sources.hpp"
#include "draw_callbacks.hpp"
#include "strip_geometry.hpp"

namespace plot {
namespace detail {
namespace {

struct StripVertex {
  float x, y;
  float across, half;
  ImU32 color;
};

struct Batch {
  std::vector<StripVertex> vertices;
  std::vector<std::uint32_t> indices;
  // Where the upload put them (render time): first vertex and first index in the buffers.
  std::uint32_t base_vertex = 0;
  std::size_t first_index = 0;
};

long long g_vertices = 0;
bool g_enabled = true;
// Changes whenever a strip is queued or the batches are cleared: what was uploaded is stale.
unsigned long long g_generation = 0;

// Batches of the frame being built and rendered; the deque keeps their addresses stable.
std::deque<Batch>& batches() {
  static std::deque<Batch> calls;
  static int frame = -1;
  if (starts_new_frame(frame)) {
    calls.clear();
    ++g_generation;
  }
  return calls;
}

// All of a frame's strips go up in one upload, into the next of three buffer pairs: Mesa
// turns re-specifying a buffer of the same size into a write that waits until the
// rasterizer is done with it, so one buffer re-filled per draw stalled the frame at every
// strip after the first (compare's two sides: 17 → 26 ms).
constexpr int kBufferSets = 3;

struct Program {
  std::optional<render::ShaderProgram> program;
  GLuint vao[kBufferSets] = {}, vertex_buffer[kBufferSets] = {}, index_buffer[kBufferSets] = {};
  int current = 0;
  unsigned long long uploaded = ~0ull;  // g_generation of what the current set holds
  bool failed = false;
};

// One per GL context, never destroyed (render::per_context).
Program& program_state() { return render::per_context<Program>(); }

// Built on first use, inside a render callback (the GL context is current there).
Program& program() {
  Program* p = &program_state();
  if (p->program || p->failed) return *p;
  try {
    p->program.emplace(render::shader_source("curve_strip.vert.glsl"), render::shader_source("curve_strip.frag.glsl"),
                       "curve_strip.vert.glsl", "curve_strip.frag.glsl");
  } catch (const std::exception& e) {
    p->failed = true;
    std::fprintf(stderr, "pe-viz: curve shader unavailable, ImGui's strips instead: %s\n", e.what());
    return *p;
  }
  glGenVertexArrays(kBufferSets, p->vao);
  glGenBuffers(kBufferSets, p->vertex_buffer);
  glGenBuffers(kBufferSets, p->index_buffer);
  constexpr GLsizei kStride = sizeof(StripVertex);
  for (int k = 0; k < kBufferSets; ++k) {
    glBindVertexArray(p->vao[k]);
    glBindBuffer(GL_ARRAY_BUFFER, p->vertex_buffer[k]);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, p->index_buffer[k]);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, kStride, reinterpret_cast<void*>(offsetof(StripVertex, x)));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, kStride, reinterpret_cast<void*>(offsetof(StripVertex, across)));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, kStride, reinterpret_cast<void*>(offsetof(StripVertex, color)));
  }
  glBindVertexArray(0);
  return *p;
}

// Uploads every batch of the frame into the next buffer set, unless that is done already.
void upload_frame(Program& p) {
  if (p.uploaded == g_generation) return;
  static std::vector<StripVertex> vertices;
  static std::vector<std::uint32_t> indices;
  vertices.clear();
  indices.clear();
  for (Batch& b : batches()) {
    b.base_vertex = std::uint32_t(vertices.size());
    b.first_index = indices.size();
    vertices.insert(vertices.end(), b.vertices.begin(), b.vertices.end());
    for (const std::uint32_t i : b.indices) indices.push_back(i + b.base_vertex);
  }
  p.current = (p.current + 1) % kBufferSets;
  glBindVertexArray(p.vao[p.current]);
  glBindBuffer(GL_ARRAY_BUFFER, p.vertex_buffer[p.current]);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(vertices.size() * sizeof(StripVertex)), vertices.data(), GL_STREAM_DRAW);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(indices.size() * sizeof(std::uint32_t)), indices.data(), GL_STREAM_DRAW);
  p.uploaded = g_generation;
}

void strip_callback(const ImDrawList*, const ImDrawCmd* cmd) {
  const Batch& b = *static_cast<const Batch*>(cmd->UserCallbackData);
  const ImDrawData* data = ImGui::GetDrawData();
  Program& p = program();
  if (!data || !p.program || b.indices.empty()) return;
  // ImGui's blend state is still set: the strip blends as ImGui's strips blend.
  if (!scissor_to_clip(cmd->ClipRect, *data)) return;
  p.program->use();
  glUniform2f(p.program->uniform("u_display_pos"), data->DisplayPos.x, data->DisplayPos.y);
  glUniform2f(p.program->uniform("u_display_size"), data->DisplaySize.x, data->DisplaySize.y);
  upload_frame(p);
  glBindVertexArray(p.vao[p.current]);
  glDrawElements(GL_TRIANGLES, GLsizei(b.indices.size()), GL_UNSIGNED_INT,
                 reinterpret_cast<void*>(b.first_index * sizeof(std::uint32_t)));
  glBindVertexArray(0);
}

// The batch `draw`'s last strip draw fills when nothing has been drawn after it in the same
// clip rectangle (the command after a callback pair is empty then), else a new one.
Batch& batch_for(ImDrawList* draw) {
  auto& calls = batches();
  const ImVector<ImDrawCmd>& cmds = draw->CmdBuffer;
  if (!calls.empty() && cmds.Size >= 3) {
    const ImDrawCmd &last = cmds[cmds.Size - 1], &reset = cmds[cmds.Size - 2], &strip = cmds[cmds.Size - 3];
    const ImVec4 clip = draw->_CmdHeader.ClipRect;
    if (last.ElemCount == 0 && last.UserCallback == nullptr && reset.UserCallback == ImDrawCallback_ResetRenderState &&
        strip.UserCallback == strip_callback && strip.UserCallbackData == &calls.back() && strip.ClipRect.x == clip.x &&
        strip.ClipRect.y == clip.y && strip.ClipRect.z == clip.z && strip.ClipRect.w == clip.w)
      return calls.back();
  }
  calls.emplace_back();
  draw->AddCallback(strip_callback, &calls.back());
  draw->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
  return calls.back();
}

}  // namespace

bool add_curve_strip(ImDrawList* draw, const ImVec2* points, int count, ImU32 color, float width) {
  if (!g_enabled || program_state().failed) return false;
  if (count < 2 || (color & IM_COL32_A_MASK) == 0) return true;
  // The profile is zero from half a pixel past the stroke's edge, yet the strip reaches a
  // whole pixel out, as the atlas strip does: across a trapezoid (a join) the interpolated
  // distance depends on where the corners are, and noisy curves, turning at every point,
  // moved by up to 218 levels in places with the strip half a pixel narrower. For the
  // same pixels, the same corners (a few % of a curve's cost).
  const float half = width * 0.5f, reach = half + 1.0f;
  static thread_local std::vector<ImVec2> miters;
  strip_miters(points, count, miters);
  Batch& b = batch_for(draw);
  const auto base = std::uint32_t(b.vertices.size());
  for (int i = 0; i < count; ++i) {
    const ImVec2 p = points[i], m = miters[std::size_t(i)];
    b.vertices.push_back({p.x + m.x * reach, p.y + m.y * reach, reach, half, color});
    b.vertices.push_back({p.x - m.x * reach, p.y - m.y * reach, -reach, half, color});
  }
  for (int i = 0; i + 1 < count; ++i) {
    const std::uint32_t a = base + std::uint32_t(2 * i);
    for (const std::uint32_t k : {a, a + 2, a + 3, a, a + 3, a + 1}) b.indices.push_back(k);
  }
  g_vertices += 2 * count;
  ++g_generation;
  return true;
}

long long curve_strip_vertices() { return g_vertices; }

void set_curve_strips_enabled(bool enabled) { g_enabled = enabled; }

}  // namespace detail

std::optional<StripCommandStats> strip_command_stats(const ImDrawCmd& cmd) {
  if (cmd.UserCallback != detail::strip_callback) return std::nullopt;
  const auto& b = *static_cast<const detail::Batch*>(cmd.UserCallbackData);
  const ImVec4 c = cmd.ClipRect;
  const auto at = [&](std::uint32_t i) {
    const auto& v = b.vertices[i];
    return ImVec2(std::clamp(v.x, c.x, std::max(c.x, c.z)), std::clamp(v.y, c.y, std::max(c.y, c.w)));
  };
  StripCommandStats s;
  s.vertices = int(b.vertices.size());
  for (std::size_t e = 0; e + 2 < b.indices.size(); e += 3) {
    const ImVec2 p = at(b.indices[e]), q = at(b.indices[e + 1]), r = at(b.indices[e + 2]);
    s.pixels += 0.5 * std::abs(double(q.x - p.x) * double(r.y - p.y) - double(r.x - p.x) * double(q.y - p.y));
  }
  return s;
}

}  // namespace plot
