#include "opaque_fill.hpp"

#include <epoxy/gl.h>

#include <algorithm>
#include <cmath>
#include <deque>

namespace plot::detail {
namespace {

struct Fill {
  ImVec2 min, max;
  ImU32 color;
};

// Calls of the frame being built and rendered; the deque keeps their addresses stable.
std::deque<Fill>& fills() {
  static std::deque<Fill> calls;
  static int frame = -1;
  if (ImGui::GetFrameCount() != frame) {  // the previous frame has been rendered by now
    calls.clear();
    frame = ImGui::GetFrameCount();
  }
  return calls;
}

void fill_callback(const ImDrawList*, const ImDrawCmd* cmd) {
  const Fill& f = *static_cast<const Fill*>(cmd->UserCallbackData);
  const ImDrawData* data = ImGui::GetDrawData();
  if (!data) return;
  const ImVec2 pos = data->DisplayPos, scale = data->FramebufferScale;
  const float fb_w = data->DisplaySize.x * scale.x, fb_h = data->DisplaySize.y * scale.y;
  // The rectangle within the command's clip rectangle, in framebuffer pixels (y down).
  const float x0 = (std::max(f.min.x, cmd->ClipRect.x) - pos.x) * scale.x;
  const float y0 = (std::max(f.min.y, cmd->ClipRect.y) - pos.y) * scale.y;
  const float x1 = (std::min(f.max.x, cmd->ClipRect.z) - pos.x) * scale.x;
  const float y1 = (std::min(f.max.y, cmd->ClipRect.w) - pos.y) * scale.y;
  // The pixels a quad covers: centres (i + ½) in [x0, x1). Clip edges are whole pixels
  // already (the backend scissors with them), so the same rule holds for both.
  const int ix0 = std::clamp(int(std::ceil(x0 - 0.5f)), 0, int(fb_w)), ix1 = std::clamp(int(std::ceil(x1 - 0.5f)), 0, int(fb_w));
  const int iy0 = std::clamp(int(std::ceil(y0 - 0.5f)), 0, int(fb_h)), iy1 = std::clamp(int(std::ceil(y1 - 0.5f)), 0, int(fb_h));
  if (ix1 <= ix0 || iy1 <= iy0) return;
  glEnable(GL_SCISSOR_TEST);
  glScissor(ix0, int(fb_h) - iy1, ix1 - ix0, iy1 - iy0);
  const ImVec4 c = ImGui::ColorConvertU32ToFloat4(f.color);
  glClearColor(c.x, c.y, c.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
}

}  // namespace

void add_opaque_rect(ImDrawList* draw, ImVec2 min, ImVec2 max, ImU32 color) {
  if ((color & IM_COL32_A_MASK) != IM_COL32_A_MASK || max.x <= min.x || max.y <= min.y) {
    draw->AddRectFilled(min, max, color);
    return;
  }
  auto& calls = fills();
  calls.push_back({min, max, color});
  draw->AddCallback(fill_callback, &calls.back());
  draw->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

}  // namespace plot::detail
