// Score (or bias) against distance for every family on one axis, past a training length.
// Each curve cites its family's own file; this file only evaluates them on one distance grid
// and says what each does past L_train.
#include "pe/relative/distance_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "pe/analysis/analysis.hpp"
#include "pe/base/errors.hpp"
#include "pe/base/number_text.hpp"
#include "pe/encodings/alibi.hpp"
#include "pe/encodings/rope.hpp"
#include "pe/relative/nope.hpp"
#include "pe/relative/sandwich.hpp"
#include "pe/relative/t5_bias.hpp"
#include "pe/relative/xpos.hpp"
#include "pe/scaling/extrapolation.hpp"

namespace pe {

namespace {

inline constexpr long long kMaxSamples = 100000;

// Five significant digits: enough for a sentence on screen ("-1023.5", "3.8072e-06").
std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.5g", v);
  return buf;
}

std::string at_ends(const DistanceCurve& c, long long training_length, long long length) {
  return num(c.at_training_end) + " at distance " + std::to_string(training_length - 1) + ", " + num(c.at_end) +
         " at " + std::to_string(length - 1);
}

void require_params(const DistanceComparisonParams& p) {
  require_in_range("training_length", p.training_length, 2, kMaxLength);
  require_in_range("length", p.length, 2, kMaxLength);
  require_in_range("samples", p.samples, 2, kMaxSamples);
  (void)alibi_slopes(p.heads);  // heads 1 … its limit
  require_in_range("head", p.head, 1, p.heads);
  require_in_range("t5_head", p.t5_head, 1, p.heads);
  require_t5_bucket_params(p.t5);
  require_kerple_log(p.kerple_log);
  require_kerple_power(p.kerple_power);
  require_even_dim("sandwich_dim", p.sandwich_dim, "Sandwich");
  require_fire_params(p.fire);
  require_xpos_params(p.dim, p.scale_base);
  require_theta("theta", p.theta);
}

// Fills value-derived fields: ends and the normalised curve over the training window.
void finish(DistanceCurve& c, const DistanceComparison& cmp) {
  const Eigen::ArrayXd& d = cmp.distance;
  const double origin = c.value[0];
  double scale = 0.0;
  for (Eigen::Index i = 0; i < d.size(); ++i) {
    if (d[i] < static_cast<double>(cmp.training_length)) scale = std::max(scale, std::abs(c.value[i] - origin));
    if (d[i] == static_cast<double>(cmp.training_length - 1)) c.at_training_end = c.value[i];
  }
  c.at_end = c.value[d.size() - 1];
  c.normalised = scale > 0.0 ? Eigen::ArrayXd((c.value - origin) / scale) : Eigen::ArrayXd::Zero(d.size());
}

DistanceCurve alibi_curve(const DistanceComparisonParams& p, const Eigen::ArrayXd& d) {
  const double slope = alibi_slopes(p.heads)[p.head - 1];
  return {"alibi", "ALiBi (slope " + num(slope) + ")", DistanceCurveKind::Bias, false, -slope * d};
}

DistanceCurve t5_curve(const DistanceComparisonParams& p, const Eigen::ArrayXd& d) {
  // Only the drawn head's column (the whole table is heads × buckets: 1024 × 4096 in a view).
  const Eigen::ArrayXd column = t5_illustrative_bias_column(p.t5, p.heads, p.t5_head - 1);
  Eigen::ArrayXd v(d.size());
  for (Eigen::Index i = 0; i < d.size(); ++i) v[i] = column[t5_relative_bucket(-static_cast<long long>(d[i]), p.t5)];
  return {"t5", "T5 buckets (" + std::to_string(p.t5.num_buckets) + ", " + std::to_string(p.t5.max_distance) +
                    (p.t5.causal ? ", causal" : ", bidirectional") + "; illustrative bias)",
          DistanceCurveKind::Bias, true, v};
}

DistanceCurve rope_curve(const DistanceComparisonParams& p, const Eigen::ArrayXd& d) {
  // E[s(Δ)] for q = k ~ N(0, I): a_i = E[u1² + u2²] = 2, b_i = 0; divided by s(0) = d.
  const Eigen::ArrayXd inv_freq = inverse_frequencies(p.dim, p.theta);
  RelativeScoreCoefficients c;
  c.a = Eigen::ArrayXd::Constant(inv_freq.size(), 2.0);
  c.b = Eigen::ArrayXd::Zero(inv_freq.size());
  return {"rope", "RoPE relative score (d = " + std::to_string(p.dim) + ", theta " + shortest_text(p.theta) + ")",
          DistanceCurveKind::Score, false, relative_score_curve(c, inv_freq, d) / static_cast<double>(p.dim)};
}

std::vector<DistanceCurve> all_curves(const DistanceComparisonParams& p, const Eigen::ArrayXd& d) {
  std::vector<DistanceCurve> curves;
  curves.push_back(alibi_curve(p, d));
  curves.push_back(t5_curve(p, d));
  curves.push_back({"kerple-log", "KERPLE log (r1 " + num(p.kerple_log.r1) + ", r2 " + num(p.kerple_log.r2) + ")",
                    DistanceCurveKind::Bias, false, kerple_log_curve(d, p.kerple_log)});
  curves.push_back({"kerple-power",
                    "KERPLE power (r1 " + num(p.kerple_power.r1) + ", r2 " + num(p.kerple_power.r2) + ")",
                    DistanceCurveKind::Bias, false, kerple_power_curve(d, p.kerple_power)});
  curves.push_back({"sandwich", "Sandwich (d = " + std::to_string(p.sandwich_dim) + ")", DistanceCurveKind::Bias, false,
                    sandwich_bias_curve(d, p.sandwich_dim)});
  curves.push_back({"fire", "FIRE input transform (c " + num(p.fire.fire_c) + ", L " + num(p.fire.fire_threshold) + ")",
                    DistanceCurveKind::Transform, true, fire_transform_curve(p.length - 1, d, p.fire)});
  curves.push_back({"xpos", "xPos decay (d = " + std::to_string(p.dim) + ", scale_base " + num(p.scale_base) + ")",
                    DistanceCurveKind::Multiplier, false, xpos_mean_decay(p.dim, d, p.scale_base)});
  curves.push_back(rope_curve(p, d));
  curves.push_back({"nope", "NoPE (causal mask only)", DistanceCurveKind::Bias, false, Eigen::ArrayXd::Zero(d.size())});
  return curves;
}

// What each family does past L_train, in one sentence with its numbers.
std::string past_training_text(const DistanceCurve& c, const DistanceComparisonParams& p) {
  const std::string ends = at_ends(c, p.training_length, p.length);
  if (c.key == "alibi") return "keeps falling linearly (-slope x distance): " + ends;
  if (c.key == "t5") {
    const long long edge = t5_bucket_edges(p.t5).back();
    return "constant from distance " + std::to_string(edge) + " on (max_distance " + std::to_string(p.t5.max_distance) +
           "): every farther key shares the last bucket, so the bias stops changing: " + ends;
  }
  if (c.key == "kerple-log") return "keeps falling, ever more slowly (logarithmically): " + ends;
  if (c.key == "kerple-power") {
    const std::string how = p.kerple_power.r2 < 1.0   ? "sublinearly (distance^r2, r2 < 1)"
                            : p.kerple_power.r2 == 1.0 ? "linearly (ALiBi with slope r1)"
                                                       : "faster than linearly (distance^r2, r2 > 1)";
    return "keeps falling " + how + ": " + ends;
  }
  if (c.key == "sandwich")
    return "keeps its log-like fall with ripples, defined at every distance and with nothing to learn: " + ends;
  if (c.key == "fire")
    return "stays in [0, 1]: distances are divided by log(c*max(L, i) + 1) of the query position i = " +
           std::to_string(p.length - 1) + ", so the MLP only ever sees inputs from its training range (the MLP "
           "itself has no published weights): " + ends;
  if (c.key == "xpos") return "keeps decaying towards 0 (each pair by zeta_i^(distance/scale_base)): " + ends;
  if (c.key == "rope") {
    const Eigen::ArrayXd inv_freq = inverse_frequencies(p.dim, p.theta);
    // Only whether a pair meets an unseen angle, not how often: first_unseen_position stops at
    // the first (extrapolation_report counts them all, ~30 ms at d = 256, L = 10^6; a view
    // asks again for every θ while it is dragged).
    long long pairs_with_unseen = 0;
    for (Eigen::Index i = 0; i < inv_freq.size(); ++i)
      pairs_with_unseen += first_unseen_position(inv_freq[i], p.training_length, inv_freq[i], p.length) >= 0 ? 1 : 0;
    return "oscillates without decaying to a limit; " + std::to_string(pairs_with_unseen) + " of " +
           std::to_string(inv_freq.size()) + " pairs meet rotation angles never seen within " +
           std::to_string(p.training_length) + " positions: " + ends;
  }
  // NoPE
  return "adds nothing at any distance; position comes from the causal mask (a start token's share 1/(t+1)), whose "
         "step between neighbours shrinks from " +
         num(nope_signal_step(p.training_length - 1)) + " at t = " + std::to_string(p.training_length - 1) + " to " +
         num(nope_signal_step(p.length - 1)) + " at t = " + std::to_string(p.length - 1);
}

}  // namespace

Eigen::ArrayXd comparison_distances(long long length, long long samples, long long training_length) {
  require_in_range("length", length, 2, kMaxLength);
  require_in_range("samples", samples, 2, kMaxSamples);
  require_in_range("training_length", training_length, 2, kMaxLength);
  std::vector<long long> d;
  if (length <= samples) {
    for (long long i = 0; i < length; ++i) d.push_back(i);
  } else {
    const double step = static_cast<double>(length - 1) / static_cast<double>(samples - 1);
    for (long long i = 0; i < samples; ++i) d.push_back(std::llround(static_cast<double>(i) * step));
    d.back() = length - 1;
    for (const long long extra : {training_length - 1, training_length})
      if (extra < length) d.push_back(extra);
    std::sort(d.begin(), d.end());
    d.erase(std::unique(d.begin(), d.end()), d.end());
  }
  Eigen::ArrayXd out(static_cast<Eigen::Index>(d.size()));
  for (std::size_t i = 0; i < d.size(); ++i) out[static_cast<Eigen::Index>(i)] = static_cast<double>(d[i]);
  return out;
}

long long DistanceComparison::find(const std::string& key) const {
  for (std::size_t i = 0; i < curves.size(); ++i)
    if (curves[i].key == key) return static_cast<long long>(i);
  return -1;
}

DistanceComparison compare_distance_curves(const DistanceComparisonParams& p) {
  require_params(p);
  DistanceComparison cmp;
  cmp.params = p;
  cmp.training_length = p.training_length;
  cmp.length = p.length;
  cmp.distance = comparison_distances(p.length, p.samples, p.training_length);
  cmp.curves = all_curves(p, cmp.distance);
  for (DistanceCurve& c : cmp.curves) {
    finish(c, cmp);
    c.past_training = past_training_text(c, p);
  }
  return cmp;
}

DistanceComparison compare_distance_curves(const DistanceComparisonParams& p, const DistanceComparison& previous) {
  DistanceComparisonParams same_theta = previous.params;
  same_theta.theta = p.theta;
  const long long rope = previous.find("rope");
  if (!(same_theta == p) || rope < 0 || previous.distance.size() == 0) return compare_distance_curves(p);
  require_params(p);
  DistanceComparison cmp = previous;
  cmp.params = p;
  DistanceCurve& c = cmp.curves[std::size_t(rope)];
  c = rope_curve(p, cmp.distance);
  finish(c, cmp);
  c.past_training = past_training_text(c, p);
  return cmp;
}

}  // namespace pe
