#pragma once
// Where "RoPE extrapolates" holds and where it does not (SEED-ERRATA 5), measured.
// Training at lengths < L_train shows pair i only the rotation angles p·θ_i for
// p = 0 ... L_train−1. At inference (length L, frequencies θ'_i after any scaling) pair i
// shows p·θ'_i mod 2π for p = 0 ... L−1. An inference angle is "unseen" when it lies
// outside the arc [0, (L_train−1)·θ_i] covered in training (the arc is the whole circle
// once a pair completed a turn). Low-frequency pairs that never completed a turn are the
// ones that meet unseen angles — the reason PI / NTK / YaRN / Llama-3 scaling exist.
#include "pe/types.hpp"

namespace pe {

struct ExtrapolationReport {
  Eigen::ArrayXd train_arc_rad;     // per pair: min(2π, (L_train−1)·θ_i), the seen arc
  Eigen::ArrayXd max_angle_rad;     // per pair: (L−1)·θ'_i, unwrapped
  Eigen::ArrayXd unseen_fraction;   // per pair: fraction of p in [0, L) whose angle is unseen
  double mean_unseen_fraction = 0;  // mean over pairs
  long long pairs_with_unseen = 0;
  long long first_unseen_pair = -1; // lowest pair index with any unseen angle, −1 if none
};

// train_inv_freq and infer_inv_freq must have the same size (pairs). Exact counting over
// integer positions (closed form per turn, no O(L) loop per pair beyond the turn count).
ExtrapolationReport extrapolation_report(const Eigen::ArrayXd& train_inv_freq, long long train_length,
                                         const Eigen::ArrayXd& infer_inv_freq, long long infer_length);

// The position p at which pair i first shows an unseen angle, or −1 if it never does for
// p < infer_length.
long long first_unseen_position(double train_inv_freq, long long train_length, double infer_inv_freq,
                                long long infer_length);

}  // namespace pe
