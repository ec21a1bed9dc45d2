#pragma once
// Round data markers as one textured quad each. ImGui fills an anti-aliased circle as a
// 12-gon plus a fringe ring: 34 triangles, most of them slivers, and Mesa's llvmpipe shades
// every triangle in 4×4-pixel blocks whatever its area — mrope-positions' ~340 token markers
// cost 3.5 ms a frame for 0.03 Mpx (`pe-viz bench --draw-costs`).
//
// The font atlas carries one disc per radius in quarter-pixel steps, sampled 4 texels a
// pixel: each texel holds clamp(r + ½ − distance, 0, 1), the same one-pixel ramp from r − ½
// to r + ½ that ImGui's fringe draws, around a true circle instead of a 12-gon.
#include <imgui.h>

namespace plot {

// Before the atlas is built: reserves the discs (custom rectangles). After ImFontAtlas::
// Build: writes them into the atlas's 8-bit pixels, before the backend converts them.
void reserve_marker_texture(ImFontAtlas& atlas);
void bake_marker_texture(ImFontAtlas& atlas);

// The radius a marker is drawn at: `radius` to the nearest quarter pixel.
float quantized_marker_radius(float radius);

namespace detail {

// A filled round marker of `radius` framebuffer pixels. Radii outside [1, 16], lists
// without anti-aliased fills or drawing with another texture go to ImDrawList::
// AddCircleFilled (12 segments).
void add_marker(ImDrawList* draw, ImVec2 centre, float radius, ImU32 color);

}  // namespace detail
}  // namespace plot
