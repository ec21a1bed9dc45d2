#pragma once
// Text helpers ImGui 1.86 lacks: vertical (rotated) text and 10^k labels with a raised,
// smaller exponent. Sizes follow the current font size.
#include <imgui.h>

#include <string>

#include "ticks.hpp"

namespace plot::detail {

ImVec2 text_size(const std::string& text, float size_scale = 1.0f);
// Size of a tick label including a superscript exponent.
ImVec2 tick_label_size(const Tick& tick);
// Draws a tick label with its top-left corner at pos.
void draw_tick_label(ImDrawList* draw, ImVec2 pos, const Tick& tick, ImU32 color);
// Text rotated 90° counter-clockwise (reads bottom to top), centred on `center`.
void draw_vertical_text(ImDrawList* draw, ImVec2 center, const std::string& text, ImU32 color);

}  // namespace plot::detail
