// The walkthrough's numbers, one row per pair (core's compute_walkthrough, the same as the view).
#include <cstdio>
#include <sstream>

#include "export/teaching_data.hpp"
#include "pe/walkthrough.hpp"

namespace app {
namespace {

std::string g(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

}  // namespace

std::string walkthrough_csv(const AppState& s) {
  const pe::WalkthroughResult r =
      pe::compute_walkthrough({s.walkthrough_q, s.walkthrough_theta, s.walkthrough_position, s.walkthrough_position_b});
  std::ostringstream out;
  out << "# seed 001 worked example: d = " << r.dim << ", theta = " << g(r.input.theta) << ", p = " << r.input.position
      << ", p_b = " << r.input.position_b << ", k = q; score(p, p_b) = " << g(r.score) << ", score(p + " << r.input.shift
      << ", p_b + " << r.input.shift << ") = " << g(r.score_shifted) << ", score(p, p_b + 1) = " << g(r.score_other_distance)
      << "\n";
  out << "pair,dim_a,dim_b,theta_power,freq,angle_rad,angle_deg,cos,sin,x,y,x_rotated,y_rotated,x_rotated_seed_arithmetic,"
         "y_rotated_seed_arithmetic,angle_b_rad,delta_angle_rad,score_share,score_share_shifted\n";
  for (const auto& w : r.pairs)
    out << w.index << ',' << w.dim_a << ',' << w.dim_b << ',' << g(w.theta_power) << ',' << g(w.freq) << ',' << g(w.angle) << ','
        << g(w.angle_deg) << ',' << g(w.cos) << ',' << g(w.sin) << ',' << g(w.x) << ',' << g(w.y) << ',' << g(w.x_rot) << ','
        << g(w.y_rot) << ',' << g(w.x_rot_seed) << ',' << g(w.y_rot_seed) << ',' << g(w.angle_b) << ',' << g(w.delta_angle) << ','
        << g(w.score_term) << ',' << g(w.score_term_shifted) << "\n";
  return out.str();
}

}  // namespace app
