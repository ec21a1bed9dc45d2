#pragma once
// An opaque rectangle drawn as a scissored glClear instead of an ImGui quad. On Mesa's
// llvmpipe (the software renderer here and in CI) a quad runs ImGui's textured, blended
// fragment shader on every pixel; a plot's background is the largest such quad of a frame
// (~7 ms of CPU at 1920×1080). A clear writes the same pixels: pixel centres inside
// [min, max), the same 8-bit colour.
#include <imgui.h>

namespace plot::detail {

// Queues the fill at the current position of `draw`'s commands (so later items draw over
// it). A colour that is not opaque is drawn as an ordinary ImGui rectangle.
void add_opaque_rect(ImDrawList* draw, ImVec2 min, ImVec2 max, ImU32 color);

}  // namespace plot::detail
