// CSV of the comparison view: the measured table, one row per quantity, one column per method.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "export/teaching_data.hpp"
#include "export/view_data.hpp"
#include "pe/alibi.hpp"
#include "pe/method_comparison.hpp"

namespace app {

// The measurement inputs for this state; the comparison view uses the same function.
// d = head_dim; the training length L = learned_max_len (the learned view's table).
pe::MethodComparisonParams comparison_params(const AppState& s) {
  pe::MethodComparisonParams p;
  p.dim = s.rope.head_dim;
  p.max_len = s.learned_max_len;
  p.theta = s.rope.theta;
  p.heads = s.heads;
  p.alibi_slope = pe::alibi_slopes(s.heads)[std::clamp<long long>(s.head, 1, s.heads) - 1];
  p.learned_sigma = 0.02;
  p.seed = s.seed;
  // Fewer random trials at large d keep a slider drag fluid (each trial is O(d)).
  p.trials = std::clamp<long long>((1LL << 20) / std::max<long long>(p.dim, 1), 32, 256);
  return p;
}

std::string comparison_csv(const AppState& s, const Derived& d) {
  if (!d.error.empty()) throw std::runtime_error(d.error);
  const pe::MethodComparisonParams p = comparison_params(s);
  const auto r = pe::compare_methods(p);
  std::ostringstream out;
  out << "quantity,sinusoidal,learned,rope,alibi\n";
  auto row = [&](const char* name, auto value) {
    out << name;
    for (const auto& m : r) out << ',' << value(m);
    out << '\n';
  };
  row("dim", [&](const auto&) { return std::to_string(p.dim); });
  row("max_len", [&](const auto&) { return std::to_string(p.max_len); });
  row("trainable_parameters", [](const auto& m) { return std::to_string(m.trainable_parameters); });
  row("cached_values", [](const auto& m) { return std::to_string(m.cached_values); });
  row("relative_max_deviation", [](const auto& m) { return csv_number(m.relative_deviation); });
  row("relative_score_rms", [](const auto& m) { return csv_number(m.score_rms); });
  row("is_relative", [](const auto& m) { return std::string(m.is_relative ? "1" : "0"); });
  row("relative_positions_checked", [](const auto& m) { return std::to_string(m.positions_checked); });
  row("defined_at_2x_max_len", [](const auto& m) { return std::string(m.defined_past_training ? "1" : "0"); });
  row("unseen_angle_fraction_at_2x", [](const auto& m) {
    return m.method == pe::AttentionMethod::Sinusoidal || m.method == pe::AttentionMethod::Rope ? csv_number(m.unseen_angle_fraction)
                                                                                               : std::string();
  });
  row("pairs_with_unseen_angles_at_2x", [](const auto& m) {
    return m.pairs > 0 ? std::to_string(m.pairs_with_unseen) + " of " + std::to_string(m.pairs) : std::string();
  });
  row("alibi_bias_at_2x", [](const auto& m) {
    return m.method == pe::AttentionMethod::Alibi ? csv_number(m.bias_at_double) : std::string();
  });
  row("flops_per_token", [](const auto& m) { return std::to_string(m.flops_per_token); });
  return out.str();
}

}  // namespace app
