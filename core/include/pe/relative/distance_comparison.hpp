#pragma once
// The comparison every course on length extrapolation draws: how each family turns a
// distance into a score (or bias), on one axis, over distances running past a training
// length L_train — one result a single view draws.
//
// The query sits at the last position of a sequence of `length` tokens and looks back at a
// key `distance` tokens earlier (0 … length − 1): for the relative families only the
// distance matters; FIRE's transform also depends on the query position (length − 1).
// Curves, in this order (key: what it is, its unit):
//   "alibi"         −slope·Δ (ALiBi, Press et al. 2022; slope = alibi_slopes(heads)[head − 1])  Bias
//   "t5"            T5 bias of the key's bucket, bucket(−Δ) (t5_buckets.hpp), from the
//                   ILLUSTRATIVE table (t5_illustrative_bias_table, head `t5_head`)      Bias
//   "kerple-log"    −r1·log(1 + r2·Δ)                                                    Bias
//   "kerple-power"  −r1·Δ^r2                                                             Bias
//   "sandwich"      Σ cos(Δω_i) − d̄/2 (sandwich.hpp)                                      Bias
//   "fire"          FIRE's input transform ψ(Δ)/ψ(max(L, i)) at i = length − 1, in [0, 1]
//                   (the MLP has no published weights)                                  Transform
//   "xpos"          xPos's decay: mean over pairs of ζ_i^(Δ/scale_base), 1 at Δ = 0       Multiplier
//   "rope"          RoPE's relative score of q = k with i.i.d. N(0, 1) entries, in
//                   expectation: s(Δ)/s(0) = mean_i cos(Δθ_i) (analysis'
//                   relative_score_curve with a_i = 2, b_i = 0, divided by s(0) = d)       Score
//   "nope"          0: NoPE adds nothing; the causal mask carries position (nope.hpp)     Bias
//
// Units differ (a bias is added to the logit, xPos multiplies the score, RoPE's is a
// normalised score, FIRE's an MLP input), so every curve also comes normalised:
//   normalised(Δ) = (value(Δ) − value(0)) / max_{Δ' < L_train} |value(Δ') − value(0)|
// (0 everywhere if that maximum is 0): each curve runs from 0 to at most ±1 inside the
// training window, and what it does past L_train reads directly as "beyond ±1" or "stays".
#include "pe/relative/module_guard.hpp"
#include <string>
#include <vector>

#include "pe/base/types.hpp"
#include "pe/relative/fire.hpp"
#include "pe/relative/kerple.hpp"
#include "pe/relative/t5_buckets.hpp"

namespace pe {

struct DistanceComparisonParams {
  long long training_length = 512;  // L_train, marked on the axis
  long long length = 2048;          // distances 0 … length − 1 (past L_train when length > L_train)
  long long samples = 1024;         // at most this many distances (integers, both ends and
                                    // L_train − 1, L_train included); 2 … 100000
  // ALiBi
  long long heads = 8;              // slopes for this many heads
  long long head = 1;               // 1-based head whose slope is drawn
  // T5 (illustrative bias table, `heads` heads; t5_head 1-based)
  T5BucketParams t5{32, 128, true};
  long long t5_head = 1;
  // KERPLE
  KerpleParams kerple_log{1.0, 1.0};
  KerpleParams kerple_power{1.0, 0.5};
  // Sandwich
  long long sandwich_dim = 128;
  // FIRE
  FireParams fire{1.0, 512.0};
  // xPos and RoPE share the head dimension and RoPE's base (xPos's rotation uses 10000).
  long long dim = 64;
  double theta = 10000.0;
  double scale_base = 512.0;
  bool operator==(const DistanceComparisonParams&) const = default;
};

enum class DistanceCurveKind { Bias, Multiplier, Score, Transform };
const char* to_string(DistanceCurveKind kind);  // "bias", "multiplier", "score", "transform"

struct DistanceCurve {
  std::string key;        // stable: "alibi", "t5", "kerple-log", … (above)
  std::string label;      // for a legend, with the parameters: "ALiBi (slope 0.5)"
  DistanceCurveKind kind = DistanceCurveKind::Bias;
  bool illustrative = false;  // T5 (illustrative table) and FIRE (transform only): say so
  Eigen::ArrayXd value;       // per distance of DistanceComparison::distance
  Eigen::ArrayXd normalised;  // see above
  double at_training_end = 0; // value at Δ = L_train − 1
  double at_end = 0;          // value at Δ = length − 1
  // One sentence with numbers: what the family does past L_train (e.g. ALiBi: "keeps
  // falling linearly: −127.5 at L_train − 1, −511.5 at 2047").
  std::string past_training;
};

struct DistanceComparison {
  Eigen::ArrayXd distance;  // ascending integers 0 … length − 1 (sampled)
  long long training_length = 0;
  long long length = 0;
  std::vector<DistanceCurve> curves;  // the nine above, in that order
  DistanceComparisonParams params;    // what it was computed from
  // Index into `curves` by key; −1 if absent.
  long long find(const std::string& key) const;
};

// Validates every parameter (InvalidArgument naming it: training_length 2 … kMaxLength,
// length 2 … kMaxLength, samples 2 … 100000, heads / head as ALiBi's, t5_head 1 … heads, the
// families' own checks, dim even, theta > 1, (length − 1)·θ_0 within extrapolation's limits).
DistanceComparison compare_distance_curves(const DistanceComparisonParams& params);

// The same, reusing `previous` when only θ differs: RoPE's curve is the one that depends on
// it, so the others (xPos's d/2 powers per distance, Sandwich's cosines) are copied, not
// recomputed, while θ is dragged. Any other difference computes everything.
DistanceComparison compare_distance_curves(const DistanceComparisonParams& params, const DistanceComparison& previous);

// The distances compare_distance_curves samples: all of 0 … length − 1 when length <= samples,
// else `samples` rounded evenly spaced integers plus L_train − 1 and L_train (when < length),
// ascending and unique.
Eigen::ArrayXd comparison_distances(long long length, long long samples, long long training_length);

}  // namespace pe
