// The theta lesson's numbers: per pair the wavelengths of both bases, per distance the
// expected score, and the summary the view prints. One table, long format:
// quantity,index,theta_low,theta_high (index = pair i or distance Δ; empty for summaries).
#include <algorithm>
#include <cmath>
#include <sstream>

#include "export/teaching_data.hpp"
#include "export/view_data.hpp"
#include "pe/lessons.hpp"

namespace app {

std::string theta_lesson_csv(const AppState& s) {
  const pe::ThetaWavelengths low = pe::theta_wavelengths(s.theta_low, s.rope.head_dim, s.length, "theta_low");
  const pe::ThetaWavelengths high = pe::theta_wavelengths(s.theta_high, s.rope.head_dim, s.length, "theta_high");
  std::ostringstream out;
  out << "# theta lesson: d = " << low.dim << ", L = " << low.length << "; score = expected s(delta)/d for a random q = k\n";
  const long long rows = std::min<long long>(s.length, kMaxCsvRows);
  if (rows < s.length) out << "# " << s.length << " distances sampled to " << rows << " rows\n";
  out << "quantity,index,theta_low,theta_high\n";
  out << "theta,," << csv_number(low.theta) << ',' << csv_number(high.theta) << "\n";
  out << "pairs_wavelength_below_length,," << low.pairs_wrapping << ',' << high.pairs_wrapping << "\n";
  out << "longest_wavelength,," << csv_number(low.longest_wavelength) << ',' << csv_number(high.longest_wavelength) << "\n";
  out << "slowest_pair_turns_in_length,," << csv_number(low.slowest_turns) << ',' << csv_number(high.slowest_turns) << "\n";
  for (long long i = 0; i < low.pairs; ++i) out << "wavelength," << i << ',' << csv_number(low.wavelengths[i]) << ',' << csv_number(high.wavelengths[i]) << "\n";
  Eigen::ArrayXd deltas(rows);
  for (long long k = 0; k < rows; ++k)
    deltas[k] = rows == s.length ? double(k) : std::round(double(k) * double(s.length - 1) / double(rows - 1));
  const Eigen::ArrayXd a = pe::mean_identical_score(low.inv_freq, deltas), b = pe::mean_identical_score(high.inv_freq, deltas);
  for (long long k = 0; k < rows; ++k) out << "score," << csv_number(deltas[k]) << ',' << csv_number(a[k]) << ',' << csv_number(b[k]) << "\n";
  return out.str();
}

}  // namespace app
