// Men et al.'s B(m) scanned over every integer distance, the smallest base that keeps it
// non-negative, and Liu et al.'s critical dimension (pe/analysis/theta_bounds.hpp).
#include "pe/analysis/theta_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "pe/base/errors.hpp"
#include "pe/encodings/simd.hpp"
#include "pe/encodings/simd_kernels.hpp"

namespace pe {
namespace {

// Positions per chain between exact re-anchors: the phasor recurrence drifts by about one
// rounding per step, so 4096 steps stay within ~1e-12 of cos(m·θ_i).
constexpr long long kStepsPerChain = 4096;
constexpr long long kBlock = kStepsPerChain * simd::kChains;

}  // namespace

BaseSumScan scan_base_sum(const Eigen::ArrayXd& inv_freq, long long length, int buckets, bool stop_at_negative,
                          const std::atomic<bool>* cancel) {
  if (inv_freq.size() < 1) throw InvalidArgument("inv_freq", "0 values", "at least one frequency");
  require_length("length", length);
  require_in_range("buckets", static_cast<long long>(buckets), 1, 1 << 20);
  BaseSumScan out;
  out.length = length;
  out.scanned = std::min(length, kMaxBaseBoundScan);
  out.min_value = std::numeric_limits<double>::infinity();
  const long long count = out.scanned + 1;  // m = 0 ... scanned
  const long long per_bucket = (count + buckets - 1) / buckets;

  const long long n = inv_freq.size();
  std::vector<double> hc(n), hs(n), a(n, 1.0), b(n, 0.0), c8(n * simd::kChains), s8(n * simd::kChains),
      angle(n * simd::kChains), values(kBlock);
  simd::kernels().sincos(inv_freq.data(), hs.data(), hc.data(), n);
  const simd::Kernels& k = simd::kernels();

  for (long long start = 0; start < count; start += kBlock) {
    if (cancel && cancel->load(std::memory_order_relaxed)) {
      out.cancelled = true;
      break;
    }
    // Chain j covers m = start + j·kStepsPerChain + g; anchors are exact sin/cos.
    for (long long i = 0; i < n; ++i)
      for (int j = 0; j < simd::kChains; ++j)
        angle[i * simd::kChains + j] = static_cast<double>(start + j * kStepsPerChain) * inv_freq[i];
    k.sincos(angle.data(), s8.data(), c8.data(), n * simd::kChains);
    k.score_chains(n, kStepsPerChain, c8.data(), s8.data(), hc.data(), hs.data(), a.data(), b.data(), 0.0, values.data());
    bool stop = false;
    for (int j = 0; j < simd::kChains && !stop; ++j) {
      for (long long g = 0; g < kStepsPerChain; ++g) {
        const long long m = start + j * kStepsPerChain + g;
        if (m >= count) {
          stop = true;
          break;
        }
        const double v = values[static_cast<std::size_t>(g * simd::kChains + j)];
        const std::size_t bucket = static_cast<std::size_t>(m / per_bucket);
        if (bucket >= out.bucket_start.size()) {
          out.bucket_start.push_back(m);
          out.bucket_min.push_back(v);
          out.bucket_max.push_back(v);
        } else {
          out.bucket_min[bucket] = std::min(out.bucket_min[bucket], v);
          out.bucket_max[bucket] = std::max(out.bucket_max[bucket], v);
        }
        if (v < out.min_value) out.min_value = v, out.argmin = m;
        if (v < 0.0 && out.first_negative < 0) {
          out.first_negative = m;
          if (stop_at_negative) {
            stop = true;
            break;
          }
        }
      }
    }
    if (stop) break;
  }
  return out;
}

SmallestBase smallest_base_for_length(long long dim, long long length, double rel_tolerance,
                                      const std::atomic<bool>* cancel) {
  require_even_dim("dim", dim);
  require_length("length", length);
  SmallestBase out;
  out.dim = dim;
  out.length = std::min(length, kMaxBaseBoundScan);
  const auto passes = [&](double theta) {
    Eigen::ArrayXd f(dim / 2);
    for (long long i = 0; i < dim / 2; ++i) f[i] = std::pow(theta, -2.0 * static_cast<double>(i) / static_cast<double>(dim));
    ++out.probes;
    const BaseSumScan s = scan_base_sum(f, out.length, 1, true, cancel);
    return !s.cancelled && s.first_negative < 0;
  };
  double fail = 1.0, pass = 0.0;
  for (double theta = 2.0; theta <= 1e30; theta *= 2.0) {
    if (cancel && cancel->load()) return out;
    if (passes(theta)) {
      pass = theta;
      break;
    }
    fail = theta;
  }
  if (pass == 0.0) return out;
  while (pass / fail > 1.0 + rel_tolerance) {
    if (cancel && cancel->load()) return out;
    const double mid = std::sqrt(pass * fail);
    if (passes(mid)) pass = mid;
    else fail = mid;
  }
  out.theta = pass;
  out.found = true;
  return out;
}

long long critical_dimension(double theta, long long dim, long long train_length) {
  require_theta("theta", theta);
  require_even_dim("dim", dim);
  require_length("train_length", train_length);
  const double pairs = static_cast<double>(dim) / 2.0;
  const double x = pairs * std::log(static_cast<double>(train_length) / (2.0 * std::numbers::pi)) / std::log(theta);
  return std::clamp<long long>(2 * static_cast<long long>(std::ceil(x)), 0, dim);
}

}  // namespace pe
