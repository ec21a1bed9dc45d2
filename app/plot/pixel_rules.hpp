#pragma once
// Grid lines, tick marks and crosshairs: axis-aligned rules a whole number of pixels wide,
// snapped to pixel edges and drawn as filled rectangles.
//
// Why: these were ImDrawList::AddLine calls at "pixel centres" (round(x) + 0.5), but AddLine
// adds its own half pixel, so every 1-px grid line landed on a pixel edge and came out as two
// columns at half strength, one pixel right of (or below) its value; at the export scale
// (1.08) it went through ImGui's fractional-width fringes instead. A snapped rectangle is
// crisp and sits within half a pixel of its value, as matplotlib and Plotly snap theirs. It
// is also cheaper on Mesa's llvmpipe, whose fragment work is per 4×4 block: a 3-px strip
// with texture-sampled fringes costs more blocks than the 1-px rectangle (rope-spectrum at
// the teaching preset, `pe-viz bench`: 10.0 → ~8.2 ms a frame).
#include <imgui.h>

namespace plot::detail {

// `width` rounded to whole pixels, at least one.
float rule_width(float width);

// A vertical rule for the value at pixel position x, from y0 to y1 (any order): columns
// [s, s + w) with s = round(x − w/2), so the rule's centre is within half a pixel of x.
void add_vertical_rule(ImDrawList* draw, float x, float y0, float y1, ImU32 color, float width);
// The same across: rows [s, s + w) for the value at y, from x0 to x1.
void add_horizontal_rule(ImDrawList* draw, float y, float x0, float x1, ImU32 color, float width);

// A frame just inside [min, max], as ImDrawList::AddRect(min, max, color, 0, 0, width) means
// it, from four rules (the sides between the top and bottom rules, so a translucent colour
// blends once per pixel).
void add_frame_rules(ImDrawList* draw, ImVec2 min, ImVec2 max, ImU32 color, float width);

}  // namespace plot::detail
