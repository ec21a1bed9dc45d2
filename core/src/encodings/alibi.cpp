// ALiBi, Press et al. 2022 ("Train Short, Test Long"), §3 and the authors' get_slopes.
#include "pe/encodings/alibi.hpp"

#include <cmath>
#include <limits>

#include "pe/base/errors.hpp"

namespace pe {

namespace {

inline constexpr long long kMaxHeads = 65536;

// n a power of two: m_h = 2^(−8h/n), h = 1 ... n (a geometric sequence starting at 2^(−8/n)).
void power_of_two_slopes(long long n, double* out) {
  for (long long h = 1; h <= n; ++h) out[h - 1] = std::exp2(-8.0 * static_cast<double>(h) / static_cast<double>(n));
}

}  // namespace

Eigen::ArrayXd alibi_slopes(long long num_heads) {
  require_in_range("num_heads", num_heads, 1, kMaxHeads);
  Eigen::ArrayXd slopes(num_heads);
  long long p = 1;  // closest power of two <= num_heads
  while (p * 2 <= num_heads) p *= 2;
  power_of_two_slopes(p, slopes.data());
  if (p == num_heads) return slopes;
  // Not a power of two: the extra n − p heads take the slopes of 2p heads at indices 0, 2, 4, ...
  // (those are the ones that fall between the p-head slopes).
  Eigen::ArrayXd doubled(2 * p);
  power_of_two_slopes(2 * p, doubled.data());
  for (long long e = 0; e < num_heads - p; ++e) slopes[p + e] = doubled[2 * e];
  return slopes;
}

TableF alibi_bias(double slope, long long length) {
  require_in_range("slope", slope, 0.0, std::numeric_limits<double>::max());
  require_length("length", length);
  check_table_budget("ALiBi bias matrix", length, length, sizeof(float));
  TableF bias(length, length);
  const float neg_inf = -std::numeric_limits<float>::infinity();
  for (long long m = 0; m < length; ++m) {
    float* row = bias.data() + m * length;
    // slope·(n − m) = −slope·(m − n); written this way the diagonal is +0, not −0.
    for (long long n = 0; n <= m; ++n) row[n] = static_cast<float>(slope * static_cast<double>(n - m));
    for (long long n = m + 1; n < length; ++n) row[n] = neg_inf;
  }
  return bias;
}

}  // namespace pe
