#pragma once
// Where a frame's rendering time goes (`pe-viz bench --draw-costs`): the last frame's
// ImGui draw data replayed list by list, and command by command inside the slow lists,
// each timed alone (glFinish on both sides). llvmpipe's cost follows the pixels it blends
// more than the vertices, so each line also gives the pixels the triangles cover.
#include <imgui.h>

#include <cstdio>

namespace app {

// Millions of pixels covered by the triangles of `dd` (each clipped to its command's
// rectangle: exact for the axis-aligned rectangles most of a frame is) plus the
// rectangle of every draw callback (a heatmap pass) but a curve strip's, whose triangles count.
double covered_megapixels(const ImDrawData& dd);

// Vertices of `dd` handed to the renderer: ImGui's and the curve strips' (plot/curve_strips).
double drawn_vertices(const ImDrawData& dd);

// Prints to `out` one line per draw list (time, commands, vertices, covered pixels) and,
// for lists over 1 ms, one per command over `command_floor_ms`. Draws into the bound
// framebuffer, clearing it before each replay.
void print_draw_costs(ImDrawData& dd, std::FILE* out, double command_floor_ms = 0.3);

}  // namespace app
