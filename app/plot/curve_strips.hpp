#pragma once
// Anti-aliased polylines drawn by a shader of our own instead of ImGui's. The strip is the
// atlas path's (plot/line_texture): two vertices a point, one quad a segment; its fragment
// shader computes the coverage profile the atlas rows store. On Mesa's llvmpipe a data
// curve is mostly thin triangles shaded in 4×4-pixel blocks, and ImGui's shader fetches a
// bilinear texel for each of those pixels: the fetch was about half a thin strip's cost
// (sinusoidal, rope-cos, rope-sin and compare at L = 10⁶: frames 6–9 % shorter, the two
// paths alternated frame by frame in one process). The pixels are the atlas strip's to
// within one level of 255 (tests/gui/line_texture_test.cpp).
//
// Consecutive strips on one draw list with nothing drawn between them share one draw.
#include <imgui.h>

#include <optional>

namespace plot {

// What one queued strip draw holds (for `pe-viz bench`, which counts what llvmpipe is
// given): vertices and the pixels its triangles cover inside the command's clip rectangle.
struct StripCommandStats {
  int vertices = 0;
  double pixels = 0;
};
// nullopt when `cmd` is not a strip draw of the frame being built or rendered.
std::optional<StripCommandStats> strip_command_stats(const ImDrawCmd& cmd);

namespace detail {

// Queues `points` (display coordinates, count ≥ 2) as a stroke `width` framebuffer pixels
// wide at the current position of `draw`'s commands, clipped to its clip rectangle. False
// (nothing queued) when the shader is unavailable in this GL context: draw it another way.
bool add_curve_strip(ImDrawList* draw, const ImVec2* points, int count, ImU32 color, float width);

// Vertices queued so far (tests: a strip costs two vertices a point).
long long curve_strip_vertices();

// Tests: false sends every strip to the fallback path, as an unavailable shader does.
void set_curve_strips_enabled(bool enabled);

}  // namespace detail
}  // namespace plot
