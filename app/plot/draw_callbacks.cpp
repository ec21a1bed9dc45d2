#include "draw_callbacks.hpp"

#include <epoxy/gl.h>

namespace plot::detail {

bool scissor_to_clip(const ImVec4& clip, const ImDrawData& data) {
  const ImVec2 pos = data.DisplayPos, scale = data.FramebufferScale;
  const float fb_h = data.DisplaySize.y * scale.y;
  const ImVec4 c((clip.x - pos.x) * scale.x, (clip.y - pos.y) * scale.y, (clip.z - pos.x) * scale.x, (clip.w - pos.y) * scale.y);
  if (c.z <= c.x || c.w <= c.y) return false;
  glScissor(int(c.x), int(fb_h - c.w), int(c.z - c.x), int(c.w - c.y));
  return true;
}

bool starts_new_frame(int& last) {
  const int frame = ImGui::GetFrameCount();
  if (frame == last) return false;
  last = frame;
  return true;
}

}  // namespace plot::detail
