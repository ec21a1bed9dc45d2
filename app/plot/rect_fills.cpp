#include "rect_fills.hpp"

#include <epoxy/gl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <exception>
#include <optional>

#include "../render/gl_generation.hpp"
#include "../render/shader_program.hpp"
#include "../render/shader_sources.hpp"
#include "draw_callbacks.hpp"

namespace plot::detail {
namespace {

constexpr float kMinTranslucentPixels = 20000.0f;

}  // namespace

struct QueuedFill {
  ImVec2 min, max;
  ImU32 color;
  bool has_hole = false;
  ImVec2 hole_min, hole_max;  // left out (leave_out_of_fill)
};

namespace {

using Fill = QueuedFill;

// Calls of the frame being built and rendered; the deque keeps their addresses stable.
std::deque<Fill>& fills() {
  static std::deque<Fill> calls;
  static int frame = -1;
  if (starts_new_frame(frame)) calls.clear();
  return calls;
}

Fill* queue(ImDrawList* draw, ImDrawCallback callback, ImVec2 min, ImVec2 max, ImU32 color) {
  auto& calls = fills();
  calls.push_back({min, max, color});
  draw->AddCallback(callback, &calls.back());
  draw->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
  return &calls.back();
}

// Framebuffer pixels (x0, y0, x1, y1; y down) whose centres (i + ½) lie in [min, max) ∩ the
// clip rectangle: the pixels a quad covers. Clip edges are whole pixels already (the backend
// scissors with them), so the same rule holds for both.
struct PixelBox {
  int x0, y0, x1, y1;
  bool empty() const { return x1 <= x0 || y1 <= y0; }
};

PixelBox pixel_box(ImVec2 min, ImVec2 max, const ImVec4& clip, const ImDrawData& data) {
  const ImVec2 pos = data.DisplayPos, scale = data.FramebufferScale;
  const float fb_w = data.DisplaySize.x * scale.x, fb_h = data.DisplaySize.y * scale.y;
  const float x0 = (std::max(min.x, clip.x) - pos.x) * scale.x, y0 = (std::max(min.y, clip.y) - pos.y) * scale.y;
  const float x1 = (std::min(max.x, clip.z) - pos.x) * scale.x, y1 = (std::min(max.y, clip.w) - pos.y) * scale.y;
  auto edge = [](float v, float limit) { return std::clamp(int(std::ceil(v - 0.5f)), 0, int(limit)); };
  return {edge(x0, fb_w), edge(y0, fb_h), edge(x1, fb_w), edge(y1, fb_h)};
}

void clear_pixels(const PixelBox& b, int fb_h) {
  if (b.empty()) return;
  glScissor(b.x0, fb_h - b.y1, b.x1 - b.x0, b.y1 - b.y0);
  glClear(GL_COLOR_BUFFER_BIT);
}

void opaque_callback(const ImDrawList*, const ImDrawCmd* cmd) {
  const Fill& f = *static_cast<const Fill*>(cmd->UserCallbackData);
  const ImDrawData* data = ImGui::GetDrawData();
  if (!data) return;
  const PixelBox all = pixel_box(f.min, f.max, cmd->ClipRect, *data);
  if (all.empty()) return;
  const int fb_h = int(data->DisplaySize.y * data->FramebufferScale.y);
  glEnable(GL_SCISSOR_TEST);
  const ImVec4 c = ImGui::ColorConvertU32ToFloat4(f.color);
  glClearColor(c.x, c.y, c.z, 1.0f);
  PixelBox hole = f.has_hole ? pixel_box(f.hole_min, f.hole_max, cmd->ClipRect, *data) : PixelBox{0, 0, 0, 0};
  hole = {std::max(hole.x0, all.x0), std::max(hole.y0, all.y0), std::min(hole.x1, all.x1), std::min(hole.y1, all.y1)};
  if (hole.empty()) return clear_pixels(all, fb_h);
  // The frame around the hole: full-width bands above and below, then its left and right.
  clear_pixels({all.x0, all.y0, all.x1, hole.y0}, fb_h);
  clear_pixels({all.x0, hole.y1, all.x1, all.y1}, fb_h);
  clear_pixels({all.x0, hole.y0, hole.x0, hole.y1}, fb_h);
  clear_pixels({hole.x1, hole.y0, all.x1, hole.y1}, fb_h);
}

struct Program {
  std::optional<render::ShaderProgram> program;
  GLuint vao = 0;
  bool failed = false;
};

// One per GL context, never destroyed (render::per_context).
Program& program_state() { return render::per_context<Program>(); }

// Built on first use, inside a render callback (the GL context is current there).
Program& program() {
  Program* p = &program_state();
  if (!p->program && !p->failed) {
    try {
      p->program.emplace(render::shader_source("heatmap.vert.glsl"), render::shader_source("flat_color.frag.glsl"),
                         "heatmap.vert.glsl", "flat_color.frag.glsl");
      glGenVertexArrays(1, &p->vao);
    } catch (const std::exception& e) {
      p->failed = true;
      std::fprintf(stderr, "pe-viz: flat fill shader unavailable, ImGui quads instead: %s\n", e.what());
    }
  }
  return *p;
}

void translucent_callback(const ImDrawList*, const ImDrawCmd* cmd) {
  const Fill& f = *static_cast<const Fill*>(cmd->UserCallbackData);
  const ImDrawData* data = ImGui::GetDrawData();
  Program& p = program();
  if (!data || !p.program) return;
  if (!scissor_to_clip(cmd->ClipRect, *data)) return;
  const ImVec2 pos = data->DisplayPos, size = data->DisplaySize;
  // Display coordinates -> NDC as the backend's orthographic projection.
  auto ndc_x = [&](float x) { return 2.0f * (x - pos.x) / size.x - 1.0f; };
  auto ndc_y = [&](float y) { return 1.0f - 2.0f * (y - pos.y) / size.y; };
  p.program->use();
  glUniform4f(p.program->uniform("u_rect_ndc"), ndc_x(f.min.x), ndc_y(f.max.y), ndc_x(f.max.x), ndc_y(f.min.y));
  const ImVec4 rgba = ImGui::ColorConvertU32ToFloat4(f.color);
  glUniform4f(p.program->uniform("u_color"), rgba.x, rgba.y, rgba.z, rgba.w);
  glBindVertexArray(p.vao);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
}

}  // namespace

QueuedFill* add_opaque_rect(ImDrawList* draw, ImVec2 min, ImVec2 max, ImU32 color) {
  if ((color & IM_COL32_A_MASK) != IM_COL32_A_MASK || max.x <= min.x || max.y <= min.y) {
    draw->AddRectFilled(min, max, color);
    return nullptr;
  }
  return queue(draw, opaque_callback, min, max, color);
}

void leave_out_of_fill(QueuedFill* fill, ImVec2 min, ImVec2 max) {
  if (fill == nullptr) return;
  fill->has_hole = max.x > min.x && max.y > min.y;
  fill->hole_min = min;
  fill->hole_max = max;
}

void add_translucent_rect(ImDrawList* draw, ImVec2 min, ImVec2 max, ImU32 color) {
  if ((color & IM_COL32_A_MASK) == 0 || max.x <= min.x || max.y <= min.y) return;
  if ((max.x - min.x) * (max.y - min.y) < kMinTranslucentPixels || program_state().failed) {
    draw->AddRectFilled(min, max, color);
    return;
  }
  queue(draw, translucent_callback, min, max, color);
}

}  // namespace plot::detail
