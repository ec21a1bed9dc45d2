#include "pixel_rules.hpp"

#include <algorithm>
#include <cmath>

namespace plot::detail {

float rule_width(float width) { return std::max(1.0f, std::round(width)); }

namespace {
float rule_start(float at, float w) { return std::round(at - w * 0.5f); }
}  // namespace

void add_vertical_rule(ImDrawList* draw, float x, float y0, float y1, ImU32 color, float width) {
  if ((color & IM_COL32_A_MASK) == 0 || y0 == y1) return;
  const float w = rule_width(width), s = rule_start(x, w);
  draw->AddRectFilled(ImVec2(s, std::min(y0, y1)), ImVec2(s + w, std::max(y0, y1)), color);
}

void add_horizontal_rule(ImDrawList* draw, float y, float x0, float x1, ImU32 color, float width) {
  if ((color & IM_COL32_A_MASK) == 0 || x0 == x1) return;
  const float w = rule_width(width), s = rule_start(y, w);
  draw->AddRectFilled(ImVec2(std::min(x0, x1), s), ImVec2(std::max(x0, x1), s + w), color);
}

void add_frame_rules(ImDrawList* draw, ImVec2 min, ImVec2 max, ImU32 color, float width) {
  if ((color & IM_COL32_A_MASK) == 0 || max.x <= min.x || max.y <= min.y) return;
  const float w = rule_width(width), h = w * 0.5f;
  const float top = rule_start(min.y + h, w), bottom = rule_start(max.y - h, w);
  add_horizontal_rule(draw, min.y + h, min.x, max.x, color, w);
  if (bottom > top) add_horizontal_rule(draw, max.y - h, min.x, max.x, color, w);
  if (bottom > top + w) {
    add_vertical_rule(draw, min.x + h, top + w, bottom, color, w);
    if (rule_start(max.x - h, w) > rule_start(min.x + h, w)) add_vertical_rule(draw, max.x - h, top + w, bottom, color, w);
  }
}

}  // namespace plot::detail
