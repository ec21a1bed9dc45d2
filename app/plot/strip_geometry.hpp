#pragma once
// Where an anti-aliased polyline's strip puts its edges (plot/line_texture's atlas strips
// and plot/curve_strips' shaded ones share it, so both draw the same stroke).
#include <imgui.h>

#include <vector>

namespace plot::detail {

// For each point, the vector whose multiples reach the strip's edges: points[i] ± miters[i] ·
// half. Ends take their segment's unit normal; interior points the mean of the two normals,
// lengthened to the miter (1 / |mean|² on the mean, capped at 10× as ImGui caps it so hairpin
// turns do not spike). `count` ≥ 2.
void strip_miters(const ImVec2* points, int count, std::vector<ImVec2>& miters);

}  // namespace plot::detail
