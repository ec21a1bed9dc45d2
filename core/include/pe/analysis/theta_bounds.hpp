#pragma once
// Two published bounds that tie RoPE's base θ to the context length, measured for any
// frequency list (plain, scaled, p-RoPE):
//
// Men et al. 2024, "Base of RoPE Bounds Context Length" (arXiv:2405.14591): a model can tell
// a similar token from a random one at relative distance m only while
//   B(m) = Σ_{i < d/2} cos(m·θ_i)
// stays non-negative (their long-term decay of "the ability to attend more attention to similar
// tokens"); a base supports a context L when B(m) >= 0 for every m <= L. pe-viz scans every
// integer m (no fitted curve) and finds the smallest such base by search.
//
// Liu et al. 2023, "Scaling Laws of RoPE-based Extrapolation" (arXiv:2310.05209): the
// critical dimension d_extra = 2·⌈(d/2)·log_θ(L_train / 2π)⌉. Pairs i < d_extra/2 have
// wavelengths 2π·θ^(2i/d) <= L_train: they complete a full turn during training, so every
// angle they meet later was seen; the pairs above do not, and extrapolate.
#include "pe/analysis/module_guard.hpp"
#include <atomic>
#include <vector>

#include "pe/base/types.hpp"

namespace pe {

// Positions scanned at most (2^24, beyond every shipped model's context but Llama 4 Scout's
// 10M is inside): a longer L is scanned up to here and says so (`scanned`).
inline constexpr long long kMaxBaseBoundScan = 1LL << 24;

struct BaseSumScan {
  long long length = 0;           // L asked for
  long long scanned = 0;          // m = 0 ... scanned were evaluated (min(L, kMaxBaseBoundScan))
  long long first_negative = -1;  // the smallest m with B(m) < 0, or -1 (B >= 0 on every m scanned)
  double min_value = 0;           // min over the scanned m of B(m), and where
  long long argmin = 0;
  // The curve for plotting: `buckets` consecutive ranges of m covering [0, scanned], each with
  // its first m, and the exact min and max of B over it (every integer m counted).
  std::vector<long long> bucket_start;
  std::vector<double> bucket_min, bucket_max;
  bool cancelled = false;
};

// B(m) = Σ_i cos(m·inv_freq[i]) for every integer 0 <= m <= min(L, kMaxBaseBoundScan).
// `stop_at_negative`: stop at the first negative value (the curve then ends there). `cancel`
// (optional) is polled between blocks. Throws InvalidArgument for an empty list or L < 1.
BaseSumScan scan_base_sum(const Eigen::ArrayXd& inv_freq, long long length, int buckets = 512,
                          bool stop_at_negative = false, const std::atomic<bool>* cancel = nullptr);

struct SmallestBase {
  double theta = 0;               // the smallest base with B >= 0 on [0, L] (within rel_tolerance)
  long long length = 0;           // L it is for (min(L, kMaxBaseBoundScan))
  long long dim = 0;              // the rotary dims of plain RoPE θ_i = θ^(−2i/d)
  bool found = false;             // false: even 10^30 fails (or cancelled)
  int probes = 0;                 // bases scanned
};

// The smallest θ for which plain RoPE of `dim` rotary dims keeps B(m) >= 0 for all m <= L:
// θ doubles from 2 until one passes, then bisection in log θ down to rel_tolerance. (The first
// negative m grows with θ; every probe is a full scan, so a non-monotone stretch cannot hide
// a failure at the value returned.)
SmallestBase smallest_base_for_length(long long dim, long long length, double rel_tolerance = 1e-4,
                                      const std::atomic<bool>* cancel = nullptr);

// Liu et al.'s critical dimension 2·⌈(d/2)·log_θ(L_train / 2π)⌉, clamped to [0, d]: twice the
// number of pairs that turn fully within L_train.
long long critical_dimension(double theta, long long dim, long long train_length);

}  // namespace pe
