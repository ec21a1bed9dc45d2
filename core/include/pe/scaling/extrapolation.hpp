#pragma once
// Where "RoPE extrapolates", as tutorials often claim, holds and where it does not, measured
// (Press et al. 2022 and Chen et al. 2023 found it does not past the training length).
// Training at lengths < L_train shows pair i only the rotation angles p·θ_i for
// p = 0 ... L_train−1. At inference (length L, frequencies θ'_i after any scaling) pair i
// shows p·θ'_i mod 2π for p = 0 ... L−1. An inference angle is "unseen" when it lies
// outside the arc [0, (L_train−1)·θ_i] covered in training (the arc is the whole circle
// once a pair completed a turn). Low-frequency pairs that never completed a turn are the
// ones that meet unseen angles — the reason PI / NTK / YaRN / Llama-3 scaling exist.
//
// Exact definition (every function here uses it, so counts, first positions and a
// per-position strip drawn with angle_unseen always agree): with A = (L_train−1)·θ_i,
// x = p·θ'_i (double), φ = fmod(x, 2π) and tol = 2π·1e-12 + 8ε·x (ε = DBL_EPSILON),
// position p is unseen iff A < 2π and A + tol < φ < 2π − tol. The tolerance makes an
// angle equal to the arc's end up to rounding (e.g. linear scaling's p·θ/s at p = s·m)
// count as seen, and an angle a rounding error below a full turn count as angle 0.
// Validation (InvalidArgument naming the parameter): frequencies finite and >= 0, sizes
// equal and 1 ... kMaxDim/2, lengths 1 ... kMaxLength, and (infer_length−1)·θ'_i <=
// kMaxExtrapolationAngle (beyond, double angles lose sub-radian resolution).
#include "pe/scaling/module_guard.hpp"
#include "pe/base/types.hpp"

namespace pe {

struct ExtrapolationReport {
  Eigen::ArrayXd train_arc_rad;     // per pair: min(2π, (L_train−1)·θ_i), the seen arc
  Eigen::ArrayXd max_angle_rad;     // per pair: (L−1)·θ'_i, unwrapped
  Eigen::ArrayXd unseen_fraction;   // per pair: fraction of p in [0, L) whose angle is unseen
  double mean_unseen_fraction = 0;  // mean over pairs
  long long pairs_with_unseen = 0;
  long long first_unseen_pair = -1; // lowest pair index with any unseen angle, −1 if none
};

inline constexpr double kMaxExtrapolationAngle = 1e15;  // rad, largest (infer_length−1)·θ'_i
inline constexpr long long kExactTurnLimit = 1'000'000;  // see extrapolation_report

// train_inv_freq and infer_inv_freq must have the same size (pairs). Exact counting over
// integer positions: per turn of p·θ'_i the unseen positions form one run, whose ends are
// found from a closed-form estimate corrected against the definition above, so the cost
// is O(min(turns, L)) per pair, not O(L); only pairs with A < 2π are counted (LLaMA-2-7B
// at L = 10^6: <= 245 turns). A pair needing more than kExactTurnLimit turns (~0.15 s at
// ~140 ns per turn; only for lengths like 10^9 ... 10^12) is counted by a floor-sum
// (Euclid-like) closed form instead, exact up to rounding at turn boundaries (measured:
// off by at most 1 position in 400 random pairs of up to 3·10^7 turns).
ExtrapolationReport extrapolation_report(const Eigen::ArrayXd& train_inv_freq, long long train_length,
                                         const Eigen::ArrayXd& infer_inv_freq, long long infer_length);

// The position p at which pair i first shows an unseen angle, or −1 if it never does for
// p < infer_length.
long long first_unseen_position(double train_inv_freq, long long train_length, double infer_inv_freq,
                                long long infer_length);

// The definition above for one position (for per-position strips that must agree with the
// report). position must be 0 ... kMaxLength−1.
bool angle_unseen(double train_inv_freq, long long train_length, double infer_inv_freq, long long position);

// Number of positions p < infer_length with an unseen angle (unseen_fraction · infer_length).
long long unseen_position_count(double train_inv_freq, long long train_length, double infer_inv_freq,
                                long long infer_length);

namespace detail {
// unseen_position_count with the exact/closed-form switch exposed, so tests can compare
// both paths (exact_turn_limit = 0 forces the floor-sum path on every full turn).
long long unseen_position_count(double train_inv_freq, long long train_length, double infer_inv_freq,
                                long long infer_length, long long exact_turn_limit);
}  // namespace detail

}  // namespace pe
