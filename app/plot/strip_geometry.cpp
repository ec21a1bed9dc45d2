#include "strip_geometry.hpp"

#include <algorithm>
#include <cmath>

namespace plot::detail {

void strip_miters(const ImVec2* points, int count, std::vector<ImVec2>& miters) {
  // Unit normals of the segments first; the last point takes the last segment's.
  miters.resize(std::size_t(count));
  for (int i = 0; i + 1 < count; ++i) {
    float dx = points[i + 1].x - points[i].x, dy = points[i + 1].y - points[i].y;
    const float d2 = dx * dx + dy * dy;
    if (d2 > 0.0f) {
      const float inv = 1.0f / std::sqrt(d2);
      dx *= inv;
      dy *= inv;
    }
    miters[std::size_t(i)] = ImVec2(dy, -dx);
  }
  miters[std::size_t(count - 1)] = miters[std::size_t(count - 2)];
  // Then the interior miters, back to front so each still reads its left neighbour's normal.
  for (int i = count - 2; i > 0; --i) {
    const ImVec2 a = miters[std::size_t(i - 1)], b = miters[std::size_t(i)];
    ImVec2 m((a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f);
    const float d2 = m.x * m.x + m.y * m.y;
    if (d2 > 0.000001f) {
      const float inv = std::min(1.0f / d2, 100.0f);
      m.x *= inv;
      m.y *= inv;
    }
    miters[std::size_t(i)] = m;
  }
}

}  // namespace plot::detail
