#pragma once
// The ImGui backend scissors each draw command with its clip rectangle; a draw callback of
// ours (plot/rect_fills, plot/curve_strips) has to do it itself, the same way.
#include <imgui.h>

namespace plot::detail {

// Sets the GL scissor to `cmd`'s clip rectangle in `data`'s framebuffer; false when that
// rectangle is empty (draw nothing).
bool scissor_to_command(const ImDrawCmd& cmd, const ImDrawData& data);

}  // namespace plot::detail
