#pragma once
// The numbers behind two teaching views, GL-free so they are unit-tested:
//  - the theta lesson ("why θ = 10000?": a raised θ is how long-context models keep their
//    slowest pairs from wrapping — Code Llama 10^6, Rozière et al. 2023; Llama 3 5·10^5 —
//    not the low θ some tutorials recommend);
//  - the pair conventions (interleaved vs half-split give equal scores after the
//    permutation; mixing them does not).
#include "pe/analysis/module_guard.hpp"
#include <cstdint>
#include <vector>

#include "pe/encodings/rope.hpp"
#include "pe/base/types.hpp"

namespace pe {

// Plain RoPE (θ_i = θ^(−2i/d)) of one base against a context length L.
struct ThetaWavelengths {
  double theta = 0;
  long long dim = 0, length = 0;
  Eigen::ArrayXd inv_freq, wavelengths;  // per pair; λ_i = 2π·θ^(2i/d)
  long long pairs = 0;
  long long pairs_wrapping = 0;   // λ_i < L: the pair turns fully inside the context
  double longest_wavelength = 0;  // 2π·θ^((d−2)/d), the slowest pair
  double slowest_turns = 0;       // L / longest_wavelength
};
// Throws InvalidArgument naming `parameter` for θ, or dim / length.
ThetaWavelengths theta_wavelengths(double theta, long long dim, long long length, const char* parameter = "theta");

// Expected s(Δ)/d for random q = k (i.i.d. entries): (2/d)·Σ_i cos(Δθ_i) — 1 at Δ = 0.
Eigen::ArrayXd mean_identical_score(const Eigen::ArrayXd& inv_freq, const Eigen::Ref<const Eigen::ArrayXd>& deltas);

struct ConventionScores {
  long long delta = 0, m = 0, n = 0;    // n = m + delta
  double interleaved = 0;     // ⟨R(m)q, R(n)k⟩, q and k in the interleaved layout
  double half_split = 0;      // the same vectors permuted into the half-split layout, rotated half-split
  double difference = 0;      // |interleaved − half_split|
  double mixed = 0;           // the permuted vectors rotated with interleaved pairing (the bug)
};
struct ConventionCheck {
  long long dim = 0;
  std::vector<long long> permutation;  // interleaved dim j → half-split dim permutation[j]
  Eigen::VectorXd q, k;                // seeded N(0,1), interleaved layout
  Eigen::VectorXd q_half, k_half;      // permuted
  std::vector<ConventionScores> scores;
};
// For plain RoPE at (θ, dim), seeded q and k, each delta in `deltas` at anchor m.
ConventionCheck convention_check(double theta, long long dim, std::uint64_t seed, long long m,
                                 const std::vector<long long>& deltas);

}  // namespace pe
