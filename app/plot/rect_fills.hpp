#pragma once
// Large filled rectangles drawn without ImGui's quad. On Mesa's llvmpipe (the software
// renderer here and in CI) an ImGui quad runs the backend's textured, blended fragment
// shader on every pixel, fetching the font atlas's white texel each time.
//  - Opaque: a scissored glClear. A plot's background is the largest quad of a frame (~7 ms
//    of CPU at 1920×1080); the clear writes the same pixels: centres inside [min, max), the
//    same 8-bit colour.
//  - Translucent (a plot band): a one-colour shader of our own, blended as ImGui blends. The
//    colour reaching the blender is the same (vertex colour × 1.0), so are the pixels
//    (tests/gui/flat_fill_test.cpp compares both byte for byte); learned's "no rows" band,
//    half a plot, cost ~1.8 ms a frame as a quad.
#include <imgui.h>

namespace plot::detail {

// Each queues the fill at the current position of `draw`'s commands (later items draw over
// it), clipped to its clip rectangle.
// A colour that is not opaque is drawn as an ordinary ImGui rectangle (and nullptr returned).
struct QueuedFill;
QueuedFill* add_opaque_rect(ImDrawList* draw, ImVec2 min, ImVec2 max, ImU32 color);
// The queued fill leaves out the pixels whose centres lie in [min, max) (display
// coordinates), which an opaque item queued after it (a heatmap) writes anyway: clearing
// them first costs llvmpipe as much as drawing them. Those pixels then show whatever is
// under the fill until that item draws them, so the caller must be sure it does. A second
// call replaces the first; nullptr is ignored.
void leave_out_of_fill(QueuedFill* fill, ImVec2 min, ImVec2 max);
// Rectangles under 20 000 px (where the callback's state changes cost more than the
// texture fetches) go to ImDrawList::AddRectFilled.
void add_translucent_rect(ImDrawList* draw, ImVec2 min, ImVec2 max, ImU32 color);

}  // namespace plot::detail
