#include "callback_scissor.hpp"

#include <epoxy/gl.h>

namespace plot::detail {

bool scissor_to_command(const ImDrawCmd& cmd, const ImDrawData& data) {
  const ImVec2 pos = data.DisplayPos, scale = data.FramebufferScale;
  const float fb_h = data.DisplaySize.y * scale.y;
  const ImVec4 c((cmd.ClipRect.x - pos.x) * scale.x, (cmd.ClipRect.y - pos.y) * scale.y, (cmd.ClipRect.z - pos.x) * scale.x,
                 (cmd.ClipRect.w - pos.y) * scale.y);
  if (c.z <= c.x || c.w <= c.y) return false;
  glScissor(int(c.x), int(fb_h - c.w), int(c.z - c.x), int(c.w - c.y));
  return true;
}

}  // namespace plot::detail
