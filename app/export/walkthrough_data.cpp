// The walkthrough's numbers, one row per pair (core's compute_walkthrough, the same as the view).
#include <sstream>

#include "export/teaching_data.hpp"
#include "export/view_data.hpp"
#include "pe/walkthrough.hpp"

namespace app {

std::string walkthrough_csv(const AppState& s) {
  const pe::WalkthroughResult r =
      pe::compute_walkthrough({s.walkthrough_q, s.walkthrough_theta, s.walkthrough_position, s.walkthrough_position_b});
  std::ostringstream out;
  out << "# seed 001 worked example: d = " << r.dim << ", theta = " << csv_number(r.input.theta) << ", p = " << r.input.position
      << ", p_b = " << r.input.position_b << ", k = q; score(p, p_b) = " << csv_number(r.score) << ", score(p + " << r.input.shift
      << ", p_b + " << r.input.shift << ") = " << csv_number(r.score_shifted) << ", score(p, p_b + 1) = " << csv_number(r.score_other_distance)
      << "\n";
  out << "pair,dim_a,dim_b,theta_power,freq,angle_rad,angle_deg,cos,sin,x,y,x_rotated,y_rotated,x_rotated_seed_arithmetic,"
         "y_rotated_seed_arithmetic,angle_b_rad,delta_angle_rad,score_share,score_share_shifted\n";
  for (const auto& w : r.pairs)
    out << w.index << ',' << w.dim_a << ',' << w.dim_b << ',' << csv_number(w.theta_power) << ',' << csv_number(w.freq) << ',' << csv_number(w.angle) << ','
        << csv_number(w.angle_deg) << ',' << csv_number(w.cos) << ',' << csv_number(w.sin) << ',' << csv_number(w.x) << ',' << csv_number(w.y) << ',' << csv_number(w.x_rot) << ','
        << csv_number(w.y_rot) << ',' << csv_number(w.x_rot_seed) << ',' << csv_number(w.y_rot_seed) << ',' << csv_number(w.angle_b) << ',' << csv_number(w.delta_angle) << ','
        << csv_number(w.score_term) << ',' << csv_number(w.score_term_shifted) << "\n";
  return out.str();
}

}  // namespace app
