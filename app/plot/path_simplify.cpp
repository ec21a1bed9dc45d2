#include "path_simplify.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace plot::detail {

void simplify_polyline(std::vector<ImVec2>& points, float tolerance) {
  const std::size_t n = points.size();
  if (n < 3 || !(tolerance > 0.0f)) return;
  constexpr double kHalfPi = 1.5707963267948966;
  const double tol = tolerance;
  std::size_t kept = 1;  // points[0] stays; points[0, kept) is the output so far
  std::size_t i = 1;
  ImVec2 anchor = points[0];
  while (i < n) {
    // One run from the anchor: the furthest point j such that the segment anchor → j passes
    // within tol of every point in between (and none of them lies past its end).
    double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
    double ref_x = 0, ref_y = 0, max_r = 0;
    bool have_ref = false;
    std::size_t last_ok = i;
    for (std::size_t j = i; j < n; ++j) {
      const double vx = double(points[j].x) - anchor.x, vy = double(points[j].y) - anchor.y;
      const double r = std::sqrt(vx * vx + vy * vy);
      if (r < max_r - 0.5 * tol) break;  // turning back: an end here would cut the turn short
      if (r <= tol) {                      // any segment from the anchor passes this close
        last_ok = j;
        continue;
      }
      double angle = 0;
      if (!have_ref) {
        ref_x = vx / r;
        ref_y = vy / r;
        have_ref = true;
      } else {
        angle = std::atan2(ref_x * vy - ref_y * vx, ref_x * vx + ref_y * vy);
        if (std::abs(angle) > kHalfPi || angle < lo || angle > hi) break;
      }
      const double half = std::asin(std::min(1.0, tol / r));
      lo = std::max(lo, angle - half);
      hi = std::min(hi, angle + half);
      max_r = std::max(max_r, r);
      last_ok = j;
    }
    points[kept++] = points[last_ok];
    anchor = points[last_ok];
    i = last_ok + 1;
  }
  points.resize(kept);
}

}  // namespace plot::detail
