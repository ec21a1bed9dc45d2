// The conventions view's numbers: the permutation (as a comment) and, per distance, the
// scores in both layouts and with the conventions mixed (core's convention_check).
#include <cstdio>
#include <sstream>

#include "export/teaching_data.hpp"
#include "export/view_data.hpp"
#include "pe/lessons.hpp"

namespace app {
namespace {

std::string exact(double v) { return csv_number(v, 17); }

}  // namespace

std::string conventions_csv(const AppState& s, const Derived&) {
  const pe::ConventionCheck c =
      pe::convention_check(s.rope.theta, s.rope.head_dim, s.seed, s.position, {0, 1, 2, 5, 10, 100, 1000});
  std::ostringstream out;
  out << "# d = " << c.dim << ", theta = " << exact(s.rope.theta) << ", seed = " << s.seed
      << "; interleaved dim j -> half-split dim:";
  for (std::size_t j = 0; j < c.permutation.size(); ++j) out << ' ' << j << "->" << c.permutation[j];
  out << "\n";
  out << "delta,m,n,score_interleaved,score_half_split_permuted,abs_difference,score_mixed\n";
  for (const auto& r : c.scores)
    out << r.delta << ',' << r.m << ',' << r.n << ',' << exact(r.interleaved) << ',' << exact(r.half_split) << ',' << exact(r.difference) << ','
        << exact(r.mixed) << "\n";
  return out.str();
}

}  // namespace app
