#pragma once
// Sandwich (Chi, Fan, Rudnicky, Ramadge 2023, "Dissecting Transformer Length Extrapolation
// via the Lens of Receptive Field Analysis", §5): the parameter-free bias built from the
// inner product of two sinusoidal position embeddings of dimension d̄ (`sandwich_dim`):
//
//   p_m · p_n = Σ_{i < d̄/2} [sin(mω_i) sin(nω_i) + cos(mω_i) cos(nω_i)]
//             = Σ_{i < d̄/2} cos((m − n)·ω_i),   ω_i = 10000^(−2i/d̄)
//
// (the rows of encodings' sinusoidal_table), a function of m − n only, largest (d̄/2) at
// m = n and falling, with ripples, for growing |m − n| — the log-like decay KERPLE and T5
// learn. No published reference code was found; the formula is the paper's.
// sandwich_bias subtracts the value at distance 0, d̄/2, so the bias is 0 at distance 0 like
// the other biases of the comparison; a constant added to every logit of a query's row does
// not change its softmax, so this is the same attention. (The paper also compresses the bias
// per head, ALiBi-style; multiply by a head factor of your own where you need one.)
//
// Refused: sandwich_dim not even 2 … kMaxDim ("sandwich_dim").
#include "pe/relative/module_guard.hpp"

#include "pe/base/types.hpp"

namespace pe {

inline constexpr long long kSandwichDefaultDim = 128;

// Σ_{i < d̄/2} cos(distance·ω_i) (distance may be any finite value; it is even in distance).
double sandwich_inner_product(double distance, long long sandwich_dim);
// sandwich_inner_product − d̄/2 (<= 0, 0 at distance 0).
double sandwich_bias(double distance, long long sandwich_dim);
Eigen::ArrayXd sandwich_bias_curve(const Eigen::Ref<const Eigen::ArrayXd>& distances, long long sandwich_dim);

}  // namespace pe
