// The theta lesson's numbers: per pair the wavelengths of both bases, per distance the
// expected score, and the summary the view prints. One table, long format:
// quantity,index,theta_low,theta_high (index = pair i or distance Δ; empty for summaries).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "export/teaching_data.hpp"
#include "export/view_data.hpp"
#include "pe/lessons.hpp"

namespace app {
namespace {

std::string g(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

}  // namespace

std::string theta_lesson_csv(const AppState& s) {
  const pe::ThetaWavelengths low = pe::theta_wavelengths(s.theta_low, s.rope.head_dim, s.length, "theta_low");
  const pe::ThetaWavelengths high = pe::theta_wavelengths(s.theta_high, s.rope.head_dim, s.length, "theta_high");
  std::ostringstream out;
  out << "# theta lesson: d = " << low.dim << ", L = " << low.length << "; score = expected s(delta)/d for a random q = k\n";
  const long long rows = std::min<long long>(s.length, kMaxCsvRows);
  if (rows < s.length) out << "# " << s.length << " distances sampled to " << rows << " rows\n";
  out << "quantity,index,theta_low,theta_high\n";
  out << "theta,," << g(low.theta) << ',' << g(high.theta) << "\n";
  out << "pairs_wavelength_below_length,," << low.pairs_wrapping << ',' << high.pairs_wrapping << "\n";
  out << "longest_wavelength,," << g(low.longest_wavelength) << ',' << g(high.longest_wavelength) << "\n";
  out << "slowest_pair_turns_in_length,," << g(low.slowest_turns) << ',' << g(high.slowest_turns) << "\n";
  for (long long i = 0; i < low.pairs; ++i) out << "wavelength," << i << ',' << g(low.wavelengths[i]) << ',' << g(high.wavelengths[i]) << "\n";
  Eigen::ArrayXd deltas(rows);
  for (long long k = 0; k < rows; ++k)
    deltas[k] = rows == s.length ? double(k) : std::round(double(k) * double(s.length - 1) / double(rows - 1));
  const Eigen::ArrayXd a = pe::mean_identical_score(low.inv_freq, deltas), b = pe::mean_identical_score(high.inv_freq, deltas);
  for (long long k = 0; k < rows; ++k) out << "score," << g(deltas[k]) << ',' << g(a[k]) << ',' << g(b[k]) << "\n";
  return out.str();
}

}  // namespace app
