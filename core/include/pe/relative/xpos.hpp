#pragma once
// xPos (Sun et al. 2022, "A Length-Extrapolatable Transformer"), as microsoft/torchscale
// implements it (torchscale/component/xpos_relative_position.py, class XPOS, used by
// MultiheadAttention with xpos_scale_base, default 512):
//
//   ζ_i = (2i + 0.4·d) / (1.4·d),  i = 0 … d/2 − 1       (buffer `scale`; all < 1)
//   pair i = dims (2i, 2i + 1) (rotate_every_two: interleaved), rotated by position·θ_i with
//   θ_i = 10000^(−2i/d) as RoPE, and both cos and sin multiplied by the pair's scale:
//     q at position m: ζ_i^( m / scale_base)
//     k at position n: ζ_i^(−n / scale_base)       (forward(..., downscale=True))
//   so the score of pair i carries ζ_i^((m − n)/scale_base): it decays as the query moves
//   away from the key (m > n), fastest for the high-frequency pairs (small i).
//
// Centring: torchscale raises ζ to centred positions, t + min_pos for row t of a sequence of
// length L (+ offset while decoding), min_pos = −(L + offset) // 2 (floor division): rows
// run from −⌈L/2⌉ to ⌊L/2⌋ − 1 (the rotation angles use the uncentred 0 … L − 1). q and k of
// one sequence share min_pos, so q·k still carries exactly ζ^((m − n)/scale_base); the
// centring only keeps each factor near 1 (no overflow at long L). xpos_q_scales follows the
// `pe-viz dump` convention ζ^(position/scale_base) for positions 0 … L − 1;
// xpos_torchscale_positions gives the exponents torchscale uses, for who needs them.
// torchscale computes in float32; these functions in double.
//
// Refused: dim not even 2 … kMaxDim ("dim"); scale_base not finite and > 0 ("scale_base":
// position / scale_base divides by it, and a negative one would turn the decay into growth).
#include "pe/relative/module_guard.hpp"

#include "pe/analysis/analysis.hpp"
#include "pe/base/types.hpp"

namespace pe {

inline constexpr double kXposDefaultScaleBase = 512.0;

void require_xpos_params(long long dim, double scale_base);

// ζ_i for i = 0 … d/2 − 1.
Eigen::ArrayXd xpos_zeta(long long dim);

// length × (d/2): entry (p, i) = ζ_i^((first_position + p) / scale_base); q's factors. k's are
// the reciprocals (ζ^(−n/scale_base)). Budget-checked; first_position may be negative.
TableD xpos_q_scales(long long dim, long long length, double scale_base = kXposDefaultScaleBase,
                     long long first_position = 0);

// The positions torchscale raises ζ to (before dividing by scale_base) for rows
// t = 0 … length − 1 of a call with `offset` earlier tokens: it builds min_pos … max_pos − 1,
// min_pos = −⌈(length + offset)/2⌉ (Python's −(length + offset) // 2), and keeps the last
// `length`, so row t gets min_pos + offset + t. length 1 … kMaxLength (budget-checked),
// offset 0 … kMaxLength.
Eigen::ArrayXd xpos_torchscale_positions(long long length, long long offset = 0);

// The decay pair i puts on the score at distance Δ = m − n (query − key): ζ_i^(Δ/scale_base),
// < 1 for an earlier key. Rows = deltas (finite), columns = pairs. Budget-checked.
TableD xpos_decay(long long dim, const Eigen::Ref<const Eigen::ArrayXd>& deltas,
                  double scale_base = kXposDefaultScaleBase);
// Its mean over pairs, per delta: the envelope the comparison draws.
Eigen::ArrayXd xpos_mean_decay(long long dim, const Eigen::Ref<const Eigen::ArrayXd>& deltas,
                               double scale_base = kXposDefaultScaleBase);

// RoPE's relative score with xPos's decay, for Δ = m − n (query − key, > 0 for an earlier
// key, as for xpos_decay): s(Δ) = Σ_i ζ_i^(Δ/scale_base)·(a_i cos Δθ_i − b_i sin Δθ_i), with
// the coefficients of analysis' relative_score_coefficients (pairs interleaved, as
// torchscale) and θ_i = inverse_frequencies(dim, 10000). analysis counts its Δ as key − query,
// so without the decay this is relative_score_curve at −Δ. coefficients.a.size() must be
// dim/2 (passthrough is added undecayed; xPos rotates every dim, so it is 0 for xPos itself).
Eigen::ArrayXd xpos_relative_score_curve(const RelativeScoreCoefficients& coefficients, long long dim,
                                         const Eigen::Ref<const Eigen::ArrayXd>& deltas,
                                         double scale_base = kXposDefaultScaleBase);

// The same decay on any RoPE's frequencies (a model's θ, a scaling method's θ'_i): pair i of
// inv_freq (size = coefficients.a.size() = dim/2, ζ from dim = 2·inv_freq.size()) keeps
// ζ_i^(Δ/scale_base) of its term — "what xPos's decay would do to this model's score".
Eigen::ArrayXd xpos_relative_score_curve(const RelativeScoreCoefficients& coefficients, const Eigen::ArrayXd& inv_freq,
                                         const Eigen::Ref<const Eigen::ArrayXd>& deltas,
                                         double scale_base = kXposDefaultScaleBase);

}  // namespace pe
