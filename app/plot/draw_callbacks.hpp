#pragma once
// What every draw callback of ours (plot/rect_fills, plot/curve_strips, the heatmap renderer)
// needs from the frame around it.
#include <imgui.h>

namespace plot::detail {

// The ImGui backend scissors each draw command with its clip rectangle; a callback has to
// do it itself, the same way. Sets the GL scissor to `clip` (display coordinates) in `data`'s
// framebuffer; false when that rectangle is empty (draw nothing).
bool scissor_to_clip(const ImVec4& clip, const ImDrawData& data);

// True when ImGui's frame count differs from `last` (and records it): the frame that queued
// the previous calls has been rendered by now (NewFrame comes after Render), so what its
// callbacks read can go.
bool starts_new_frame(int& last);

}  // namespace plot::detail
