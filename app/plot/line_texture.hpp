#pragma once
// Anti-aliased polylines of fractional width as one textured strip, like Dear ImGui's own
// textured lines (which exist for whole-pixel widths only). ImGui draws a fractional width
// as three strips (a core and two alpha fringes, six triangles a segment); on Mesa's
// llvmpipe every thin triangle is shaded in 4×4-pixel blocks, so a data curve costs three
// times the fragment work it needs: 6 curves × 600 noisy points at 1.5 px took 16–18 ms a
// frame, the same at 2 px (ImGui's textured path) 7–8 ms (`pe-viz bench --draw-costs`).
//
// The font atlas carries one texel row per width in 1/8-pixel steps: each texel holds the
// share of it that a box of that width, centred on the row, covers. The strip spans the
// width plus one pixel each side and samples the row bilinearly, so every cross-section of
// a straight line integrates to exactly the width: the stroke weighs what ImGui's fringed
// strips weigh (tests/gui/line_texture_test.cpp).
#include <imgui.h>

namespace plot {

// Before the atlas is built: reserves the rows (a custom rectangle). After ImFontAtlas::
// Build: writes them into the atlas's 8-bit pixels, before the backend converts them to
// RGBA and uploads them.
void reserve_line_texture(ImFontAtlas& atlas);
void bake_line_texture(ImFontAtlas& atlas);

// The width a stroke is drawn at: `thickness` to the nearest 1/8 pixel.
float quantized_line_width(float thickness);

namespace detail {

// Appends an open polyline (no joins drawn past the ends) of `thickness` framebuffer
// pixels to `draw`. Widths in (1, 16] on lists with anti-aliased lines are drawn as a
// shaded strip (plot/curve_strips); where that shader is unavailable, fractional ones as
// the atlas strip above. The rest go to ImDrawList::AddPolyline (and the atlas strip too
// when `draw` is drawing with another texture).
void add_polyline(ImDrawList* draw, const ImVec2* points, int count, ImU32 color, float thickness);

}  // namespace detail
}  // namespace plot
