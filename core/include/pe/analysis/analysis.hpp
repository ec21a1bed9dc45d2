#pragma once
// Analyses built on the encodings: relative dot-product curves, the RoFormer long-term
// decay bound, attention patterns under each method, wavelengths.
#include "pe/analysis/module_guard.hpp"
#include <cstdint>
#include <string>
#include <vector>
#include "pe/encodings/rope.hpp"
#include "pe/base/types.hpp"

namespace pe {

// s(Δ) = <R(m)q, R(m+Δ)k> = Σ_i a_i cos(Δθ_i) + b_i sin(Δθ_i)   (independent of m),
// plus `passthrough`: the dot product of the non-rotating tail dims (partial rotary).
// With (u1,u2) = q's pair i and (v1,v2) = k's pair i: a_i = u1v1 + u2v2, b_i = u2v1 − u1v2
// (from uᵀR(Δθ)v; the sign of b fixes which way s(Δ) leans, see RotationSign::Negative's mirror).
struct RelativeScoreCoefficients {
  Eigen::ArrayXd a, b;
  double passthrough = 0.0;
};

RelativeScoreCoefficients relative_score_coefficients(const Eigen::Ref<const Eigen::VectorXd>& q,
                                                      const Eigen::Ref<const Eigen::VectorXd>& k,
                                                      long long rotary_pairs, PairConvention convention);

double relative_score(const RelativeScoreCoefficients& c, const Eigen::ArrayXd& inv_freq, double delta);
Eigen::ArrayXd relative_score_curve(const RelativeScoreCoefficients& c, const Eigen::ArrayXd& inv_freq,
                                    const Eigen::Ref<const Eigen::ArrayXd>& deltas);

enum class VectorChoice { Identical, RandomPair, MeanOfRandomPairs, MeanOfIdentical };

// Curves for seeded vectors with i.i.d. N(0,1) entries, dim = 2·inv_freq.size():
//  Identical:          q = k, one seeded vector; s(0) = ‖q‖².
//  RandomPair:         one seeded independent pair (q, k).
//  MeanOfRandomPairs:  mean of s(Δ) over `samples` seeded independent pairs (→ 0 as
//                      samples grow: unrelated vectors carry no positional preference).
//  MeanOfIdentical:    mean over `samples` seeded q = k; tends to Σ_i 2·cos(Δθ_i), the
//                      smooth decaying curve.
Eigen::ArrayXd relative_score_curve(VectorChoice choice, const Eigen::ArrayXd& inv_freq,
                                    const Eigen::Ref<const Eigen::ArrayXd>& deltas,
                                    std::uint64_t seed = 0, long long samples = 64);

// The coefficients behind relative_score_curve(VectorChoice, ...) for `pairs` pairs.
RelativeScoreCoefficients choice_coefficients(VectorChoice choice, long long pairs, std::uint64_t seed = 0,
                                              long long samples = 64);

// Several curves over the same deltas at the price of one: cos/sin of Δθ_i are evaluated
// once per (Δ, pair) and shared. Column c is relative_score_curve(sets[c], ...); with
// decay_bound, one more column holds long_term_decay_bound(inv_freq, deltas).
Eigen::ArrayXXd relative_score_curves(const std::vector<RelativeScoreCoefficients>& sets, const Eigen::ArrayXd& inv_freq,
                                      const Eigen::Ref<const Eigen::ArrayXd>& deltas, bool decay_bound = false);

// RoFormer §3.4.3 bound: (1/(d/2)) Σ_{j=1}^{d/2} |S_j(Δ)|, S_j = Σ_{i<j} e^{iΔθ_i}.
Eigen::ArrayXd long_term_decay_bound(const Eigen::ArrayXd& inv_freq,
                                     const Eigen::Ref<const Eigen::ArrayXd>& deltas);

// T5Bias, Kerple and Xpos are issue 32's families; their inputs come from pe/relative (a
// module above this one) through AttentionParams' fields below (set_relative_attention_inputs).
enum class AttentionMethod { NoPosition, Sinusoidal, Learned, Rope, Alibi, T5Bias, Kerple, Xpos };
// "none", "sinusoidal", "learned", "rope", "alibi", "t5", "kerple", "xpos"
const char* to_string(AttentionMethod m);

struct AttentionParams {
  long long length = 32;
  long long dim = 64;
  double theta = 10000.0;
  std::uint64_t seed = 0;
  double alibi_slope = 0.5;       // head 1 of 8
  double learned_sigma = 0.02;
  // RoPE's frequencies: empty means θ^(−2i/d); otherwise these (scaled, or fewer than
  // d/2 for partial rotary: the tail dims pass through), in `convention`'s pair layout.
  Eigen::ArrayXd rope_inv_freq;
  PairConvention convention = PairConvention::Interleaved;
  // Token content: Q = X·Wq, K = X·Wk with seeded X (length × dim) and random
  // projections; additive methods add the PE to X first (as in the models).
  // T5Bias / Kerple: the bias added to logit (query m, key n), length × length (entries with
  // n > m are not read). T5 adds its bias to an unscaled q·k and folds 1/√d into its query
  // weights' initialisation (Mesh TensorFlow); these seeded tokens keep the 1/√d instead, so
  // every panel's content term has the same scale.
  TableD t5_bias, kerple_bias;
  // Xpos: q and k rotated as RoPE with θ = 10000 in interleaved pairs (torchscale), pair i of q
  // at m scaled by xpos_zeta[i]^(m/xpos_scale_base), of k at n by xpos_zeta[i]^(−n/...): dim/2 entries.
  Eigen::ArrayXd xpos_zeta;
  double xpos_scale_base = 512.0;
};

// length × length row-stochastic matrix softmax(QKᵀ/√d + causal mask [+ the method's bias]);
// masked entries are exactly 0.
TableF attention_pattern(AttentionMethod method, const AttentionParams& params);

// The seeded inputs every method shares, for (length, dim, seed): token content X, the
// projections Wq, Wk, and Q = X·Wq, K = X·Wk for the methods that add nothing to X. None of
// them depends on θ, so a view dragging θ keeps them (at d = 1024: 2·10^6 normal samples and
// two 64 × 1024 × 1024 products a pattern). Validated as attention_pattern validates.
struct AttentionTokens {
  long long length = 0, dim = 0;
  std::uint64_t seed = 0;
  MatrixD x, wq, wk, q, k;
};
AttentionTokens attention_tokens(long long length, long long dim, std::uint64_t seed);
// attention_pattern from `tokens`, the same numbers; tokens for another (length, dim, seed)
// are refused (InvalidArgument "tokens").
TableF attention_pattern(AttentionMethod method, const AttentionParams& params, const AttentionTokens& tokens);
// What every attention method's inputs must satisfy (d even for RoPE, θ > 1, ALiBi slope
// >= 0, learned sigma > 0); throws InvalidArgument naming the parameter.
void require_attention_inputs(AttentionMethod method, long long dim, double theta, double alibi_slope,
                              double learned_sigma);

// λ_i = 2π/θ_i, and how many full turns pair i makes over `length` positions
// (length·θ_i / 2π).
Eigen::ArrayXd wavelengths(const Eigen::ArrayXd& inv_freq);
Eigen::ArrayXd full_turns(const Eigen::ArrayXd& inv_freq, long long length);

}  // namespace pe
