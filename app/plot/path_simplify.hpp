#pragma once
// Drops the points of a screen-space polyline that lie within `tolerance` pixels of the
// segment that replaces them, as plotting libraries do before drawing (matplotlib's
// path.simplify_threshold: 1/9 px by default). A curve sampled once per pixel column is
// mostly straight at that scale: its vertices, and llvmpipe's per-triangle set-up cost, go
// down by several times while every dropped point stays within the tolerance of the drawn
// line; turning points, peaks and reversals are kept.
#include <imgui.h>

#include <vector>

namespace plot::detail {

// The default: 1/32 px, a fraction of one 8-bit coverage step's worth of ink at any edge pixel.
inline constexpr float kSimplifyTolerance = 1.0f / 32.0f;

// In place; the first and last points always stay. O(n): one pass with a wedge of the
// directions from the last kept point that pass within `tolerance` of every point since.
void simplify_polyline(std::vector<ImVec2>& points, float tolerance = kSimplifyTolerance);

}  // namespace plot::detail
