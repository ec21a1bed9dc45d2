// The tutorials' comparison table, measured (see method_comparison.hpp).
#include "pe/analysis/method_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "pe/encodings/alibi.hpp"
#include "pe/base/errors.hpp"
#include "pe/scaling/extrapolation.hpp"
#include "pe/encodings/learned.hpp"
#include "pe/encodings/sinusoidal.hpp"

namespace pe {

namespace {

struct Trial {
  Eigen::VectorXd x, y;  // content of the query and key tokens
  long long m = 0, delta = 0;
};

}  // namespace

std::array<MethodMeasurement, 4> compare_methods(const MethodComparisonParams& p) {
  const long long d = p.dim, L = p.max_len;
  require_even_dim("dim", d, "RoPE");
  require_in_range("max_len", L, 2, kMaxLength / 2);
  require_theta("theta", p.theta);
  require_at_least("heads", p.heads, 1);
  require_in_range("alibi_slope", p.alibi_slope, 0.0, std::numeric_limits<double>::max());
  require_positive("learned_sigma", p.learned_sigma);
  require_in_range("trials", p.trials, 1, 100000);
  check_table_budget("relative-check vectors", p.trials, d, 2 * sizeof(double));

  std::array<MethodMeasurement, 4> out;
  out[0].method = AttentionMethod::Sinusoidal;
  out[1].method = AttentionMethod::Learned;
  out[2].method = AttentionMethod::Rope;
  out[3].method = AttentionMethod::Alibi;
  MethodMeasurement &sin = out[0], &learned = out[1], &rope = out[2], &alibi = out[3];

  // ---- Parameters and caches (exact counts)
  learned.trainable_parameters = L * d;
  sin.cached_values = L * d;
  learned.cached_values = 0;  // the table is the parameters themselves
  rope.cached_values = 2 * L * (d / 2);
  alibi.cached_values = p.heads;
  sin.flops_per_token = d;
  learned.flops_per_token = d;
  rope.flops_per_token = 2 * 3 * d;  // per pair 4 mul + 2 add, for q and for k
  alibi.flops_per_token = 2 * L;

  // ---- Relative position
  const long long P = std::clamp<long long>(kRelativeCheckEntries / d, 2, L);
  std::mt19937_64 rng(mix_seed(p.seed, 11));
  std::vector<Trial> trials(static_cast<std::size_t>(p.trials));
  for (long long t = 0; t < p.trials; ++t) {
    Trial& tr = trials[std::size_t(t)];
    tr.x = seeded_normal(d, mix_seed(p.seed, 1000 + 2 * std::uint64_t(t)));
    tr.y = seeded_normal(d, mix_seed(p.seed, 1001 + 2 * std::uint64_t(t)));
    // Δ in [0, P − 1], then m with m + Δ < P, uniform (modulo: a negligible bias).
    tr.delta = static_cast<long long>(rng() % std::uint64_t(P));
    tr.m = static_cast<long long>(rng() % std::uint64_t(P - tr.delta));
  }
  const double inv_sqrt_d = 1.0 / std::sqrt(double(d));
  const LearnedEmbedding table(P, d, p.learned_sigma, mix_seed(p.seed, 3));
  const Eigen::ArrayXd inv_freq = inverse_frequencies(d, p.theta);
  // The rows the trials use, tabulated once (a pow and a sin per entry would dominate at large d).
  const MatrixD sin_table = sinusoidal_table(P, d, p.theta).cast<double>().matrix();
  auto sinusoidal_row = [&](long long pos) -> Eigen::VectorXd { return sin_table.row(pos).transpose(); };
  // score(method, trial, m, n)
  auto score = [&](AttentionMethod method, const Trial& tr, long long m, long long n) {
    switch (method) {
      case AttentionMethod::Sinusoidal:
        return (tr.x + sinusoidal_row(m)).dot(tr.y + sinusoidal_row(n)) * inv_sqrt_d;
      case AttentionMethod::Learned:
        return (tr.x + table.at(m).cast<double>()).dot(tr.y + table.at(n).cast<double>()) * inv_sqrt_d;
      case AttentionMethod::Rope:
        return apply_rope(tr.x, double(m), inv_freq, PairConvention::Interleaved)
                   .dot(apply_rope(tr.y, double(n), inv_freq, PairConvention::Interleaved)) *
               inv_sqrt_d;
      case AttentionMethod::Alibi:
        return tr.x.dot(tr.y) * inv_sqrt_d - p.alibi_slope * double(std::abs(n - m));
      default:
        return 0.0;
    }
  };
  for (MethodMeasurement& r : out) {
    double sum2 = 0;
    for (const Trial& tr : trials) {
      const double at_zero = score(r.method, tr, 0, tr.delta);
      const double at_m = score(r.method, tr, tr.m, tr.m + tr.delta);
      r.relative_deviation = std::max(r.relative_deviation, std::abs(at_m - at_zero));
      sum2 += at_zero * at_zero;
    }
    r.score_rms = std::sqrt(sum2 / double(trials.size()));
    r.is_relative = r.relative_deviation <= 1e-9 * r.score_rms;
    r.positions_checked = P;
  }

  // ---- Past the training length: inference at 2L
  try {
    // One column suffices to ask whether the row exists; the table's rows are L as trained.
    const LearnedEmbedding rows_only(L, 1, p.learned_sigma, mix_seed(p.seed, 3));
    (void)rows_only.at(2 * L - 1);
  } catch (const PositionOutOfRange& e) {
    learned.defined_past_training = false;
    learned.past_training_error = e.what();
  }
  const Eigen::ArrayXd sin_freq = sinusoidal_frequencies(d, p.theta);
  for (auto [r, freq] : {std::pair{&sin, &sin_freq}, std::pair{&rope, &inv_freq}}) {
    const ExtrapolationReport rep = extrapolation_report(*freq, L, *freq, 2 * L);
    r->unseen_angle_fraction = rep.mean_unseen_fraction;
    r->pairs_with_unseen = rep.pairs_with_unseen;
    r->pairs = freq->size();
  }
  alibi.bias_at_training_end = -p.alibi_slope * double(L - 1);
  alibi.bias_at_double = -p.alibi_slope * double(2 * L - 1);
  return out;
}

}  // namespace pe
