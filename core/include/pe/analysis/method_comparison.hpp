#pragma once
// The comparison table of positional-encoding tutorials (parameters, memory, relative
// position, extrapolation, cost) measured instead of asserted, for sinusoidal / learned / RoPE / ALiBi at
// one head dimension d and training length L (= max_len of the learned table).
//
//  - Trainable parameters: learned L·d, the others 0. Cached values: what an
//    implementation precomputes (sinusoidal L·d table, RoPE cos and sin L·d/2 each,
//    ALiBi one slope per head): "memory" is not the same thing as "parameters".
//  - Relative position: score s(m, n) of a content pair (x, x') ~ N(0, 1)^d placed at
//    positions m and n; max over random (x, x', m, Δ) of |s(m, m+Δ) − s(0, Δ)|. Additive
//    methods use q = x + P(m), k = x' + P(n) (projections taken as the identity: the
//    cross terms x·P(n) alone already depend on absolute position); RoPE rotates x, x'
//    to m, n; ALiBi adds −slope·|m − n|. All scores are divided by √d.
//  - Past the training length (inference at 2L): learned has no row (the error text);
//    sinusoidal and plain RoPE are defined but meet rotation angles never seen in training
//    (extrapolation_report with the same frequencies for training and inference);
//    ALiBi's bias is defined and linear, reaching −slope·(2L − 1).
#include "pe/analysis/module_guard.hpp"
#include <array>
#include <cstdint>
#include <string>

#include "pe/analysis/analysis.hpp"
#include "pe/encodings/rope.hpp"

namespace pe {

struct MethodComparisonParams {
  long long dim = 64;        // d (head dimension)
  long long max_len = 64;    // L: training length, rows of the learned table
  double theta = 10000.0;    // sinusoidal and RoPE base
  long long heads = 8;       // ALiBi heads (slopes stored)
  double alibi_slope = 0.5;  // slope of the head used for the measurements
  double learned_sigma = 0.02;
  std::uint64_t seed = 0;
  long long trials = 256;    // random (x, x', m, Δ) for the relative check
};

// Positions the relative check samples lie below min(L, this / d) (and at least 2), which
// bounds the learned table it builds to this many entries.
inline constexpr long long kRelativeCheckEntries = 1LL << 19;

struct MethodMeasurement {
  AttentionMethod method = AttentionMethod::Sinusoidal;
  long long trainable_parameters = 0;
  long long cached_values = 0;
  // Relative position
  double relative_deviation = 0;  // max |s(m, m+Δ) − s(0, Δ)|
  double score_rms = 0;           // RMS of s(0, Δ) over the trials, the scale to compare with
  bool is_relative = false;       // deviation <= 1e-9 · score_rms (rounding only)
  long long positions_checked = 0;  // m and m + Δ lie in [0, positions_checked)
  // Past the training length, at 2L
  bool defined_past_training = true;  // a value exists for position 2L − 1
  std::string past_training_error;    // learned: why not (core's PositionOutOfRange text)
  double unseen_angle_fraction = 0;   // sinusoidal, RoPE: mean over pairs of unseen angles
  long long pairs_with_unseen = 0;    // sinusoidal, RoPE
  long long pairs = 0;                // sinusoidal, RoPE: frequency pairs
  double bias_at_training_end = 0;    // ALiBi: −slope·(L − 1)
  double bias_at_double = 0;          // ALiBi: −slope·(2L − 1)
  // Arithmetic per token to apply the method (counted, not timed): additive d adds;
  // RoPE 3 flops per dim for each of q and k; ALiBi 2 per (query, key) pair at length L.
  long long flops_per_token = 0;
};

// Sinusoidal, learned, RoPE, ALiBi in this order. Throws InvalidArgument for dim
// (RoPE: even) or max_len (>= 2; (2L − 1)·θ_0 within extrapolation's limits), theta,
// heads, slope, sigma, trials (1 ... 100000).
std::array<MethodMeasurement, 4> compare_methods(const MethodComparisonParams& params);

}  // namespace pe
