#include "pe/analysis/teaching_numbers.hpp"

#include <cmath>
#include <numbers>

#include "pe/base/errors.hpp"
#include "pe/encodings/learned.hpp"

namespace pe {

ThetaWavelengths theta_wavelengths(double theta, long long dim, long long length, const char* parameter) {
  require_theta(parameter, theta);
  require_even_dim("dim", dim, "RoPE");
  require_length("length", length);
  ThetaWavelengths t;
  t.theta = theta;
  t.dim = dim;
  t.length = length;
  t.inv_freq = inverse_frequencies(dim, theta);
  t.wavelengths = 2.0 * std::numbers::pi / t.inv_freq;
  t.pairs = t.inv_freq.size();
  for (Eigen::Index i = 0; i < t.wavelengths.size(); ++i) t.pairs_wrapping += t.wavelengths[i] < double(length) ? 1 : 0;
  t.longest_wavelength = t.wavelengths[t.pairs - 1];
  t.slowest_turns = double(length) / t.longest_wavelength;
  return t;
}

Eigen::ArrayXd mean_identical_score(const Eigen::ArrayXd& inv_freq, const Eigen::Ref<const Eigen::ArrayXd>& deltas) {
  require_frequencies("inv_freq", inv_freq);
  Eigen::ArrayXd out(deltas.size());
  for (Eigen::Index k = 0; k < deltas.size(); ++k) out[k] = (deltas[k] * inv_freq).cos().mean();
  return out;
}

ConventionCheck convention_check(double theta, long long dim, std::uint64_t seed, long long m,
                                 const std::vector<long long>& deltas) {
  require_even_dim("dim", dim, "RoPE");
  require_in_range("m", m, 0, kMaxLength);
  const Eigen::ArrayXd inv = inverse_frequencies(dim, theta);
  ConventionCheck c;
  c.dim = dim;
  c.permutation = pair_permutation(dim, PairConvention::Interleaved, PairConvention::HalfSplit);
  // q and k from one seeded draw of 2·dim numbers, so they are independent.
  const Eigen::VectorXd both = seeded_normal(2 * dim, seed);
  c.q = both.head(dim);
  c.k = both.tail(dim);
  c.q_half.resize(dim);
  c.k_half.resize(dim);
  for (long long j = 0; j < dim; ++j) {
    c.q_half[c.permutation[std::size_t(j)]] = c.q[j];
    c.k_half[c.permutation[std::size_t(j)]] = c.k[j];
  }
  for (long long delta : deltas) {
    require_in_range("delta", delta, -m, kMaxLength);
    ConventionScores s;
    s.delta = delta;
    s.m = m;
    s.n = m + delta;
    const double pm = double(s.m), pn = double(s.n);
    s.interleaved = apply_rope(c.q, pm, inv, PairConvention::Interleaved).dot(apply_rope(c.k, pn, inv, PairConvention::Interleaved));
    s.half_split = apply_rope(c.q_half, pm, inv, PairConvention::HalfSplit).dot(apply_rope(c.k_half, pn, inv, PairConvention::HalfSplit));
    s.difference = std::fabs(s.interleaved - s.half_split);
    s.mixed = apply_rope(c.q_half, pm, inv, PairConvention::Interleaved).dot(apply_rope(c.k_half, pn, inv, PairConvention::Interleaved));
    c.scores.push_back(s);
  }
  return c;
}

}  // namespace pe
