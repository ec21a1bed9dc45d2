#pragma once
// A large translucent rectangle (a plot band) drawn by a one-colour shader of our own
// instead of an ImGui quad. ImGui's fragment shader samples the font atlas's white texel
// for every pixel of a filled rectangle; on Mesa's llvmpipe that bilinear fetch is most of
// a blended quad's cost (learned's "no rows" band, half a plot: ~1.8 ms a frame). The colour
// reaching the blender is the same (vertex colour × 1.0), so are the pixels
// (tests/gui/flat_fill_test.cpp compares both byte for byte).
#include <imgui.h>

namespace plot::detail {

// Queues the fill at the current position of `draw`'s commands, clipped to its clip
// rectangle, blended as ImGui blends. Small rectangles go to ImDrawList::AddRectFilled.
void add_translucent_rect(ImDrawList* draw, ImVec2 min, ImVec2 max, ImU32 color);

}  // namespace plot::detail
