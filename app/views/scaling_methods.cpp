#include "views/scaling_methods.hpp"

#include "pe/analysis/theta_bounds.hpp"

#include <sstream>

#include "pe/scaling/extrapolation.hpp"
#include "state/derived.hpp"
#include "views/view.hpp"
#include "views/view_csv.hpp"

namespace app {

double comparison_factor(const pe::RopeConfig& base) {
  return base.scaling.factor > 1.0 ? base.scaling.factor : 4.0;
}

const std::vector<MethodFrequencies>& all_method_frequencies(const pe::RopeConfig& base, long long length) {
  static std::vector<MethodFrequencies> cache;
  static std::string cache_key;
  const std::string key = rope_input_key(base, length);
  if (key == cache_key) return cache;
  cache_key = key;
  cache.clear();

  const double factor = comparison_factor(base);
  const long long original = base.original_max_position_embeddings();
  auto add = [&](const char* label, pe::RopeType type, long long at_length) {
    pe::RopeConfig c = base;
    c.scaling.type = type;
    c.scaling.factor = type == pe::RopeType::Default ? 1.0 : factor;
    c.scaling.original_max_position_embeddings = original;
    // A model's own method keeps its parameters; others get Hugging Face's defaults.
    if (type != base.scaling.type) {
      pe::RopeScaling defaults;
      c.scaling.beta_fast = defaults.beta_fast;
      c.scaling.beta_slow = defaults.beta_slow;
      c.scaling.mscale = defaults.mscale;
      c.scaling.mscale_all_dim = defaults.mscale_all_dim;
      c.scaling.attention_factor = defaults.attention_factor;
      c.scaling.low_freq_factor = defaults.low_freq_factor;
      c.scaling.high_freq_factor = defaults.high_freq_factor;
    }
    if (type == pe::RopeType::LongRope && c.max_position_embeddings <= original)
      c.max_position_embeddings = (long long)(double(original) * factor);
    MethodFrequencies m{label, type, {}, {}};
    try {
      m.freqs = pe::scaled_frequencies(c, at_length);
    } catch (const std::exception& e) {
      m.error = e.what();
    }
    cache.push_back(std::move(m));
  };
  add("none", pe::RopeType::Default, length);
  add("linear (PI)", pe::RopeType::Linear, length);
  add("ntk-aware", pe::RopeType::NtkAware, length);
  add("dynamic ntk", pe::RopeType::Dynamic, length);
  add("yarn", pe::RopeType::Yarn, length);
  add("llama3", pe::RopeType::Llama3, length);
  if (!base.scaling.short_factor.empty() && !base.scaling.long_factor.empty()) {
    add("longrope (short)", pe::RopeType::LongRope, std::min(length, original));
    add("longrope (long)", pe::RopeType::LongRope, std::max(length, original + 1));
  }
  return cache;
}

long long extrapolation_length(const AppState& s) {
  const long long train = s.rope.original_max_position_embeddings();
  if (s.length > train) return s.length;
  return std::min<long long>(train * kExtrapolationShownMultiple, 1'000'000);
}

namespace {

std::string method_table_csv(const AppState& s, const Derived& d, bool unseen) {
  std::ostringstream out;
  const auto& inv = d.rope.inv_freq;
  const long long length = unseen ? extrapolation_length(s) : s.length;
  const auto& methods = all_method_frequencies(s.rope, length);
  const long long train = s.rope.original_max_position_embeddings();
  out << "# " << (unseen ? "fraction of positions < L at an unseen angle" : "inv_freq per method") << ", L = " << length
      << ", L_orig = " << train << (length != s.length ? " (the length slider is within L_orig)" : "") << "\n";
  out << "pair,original_inv_freq";
  std::vector<Eigen::ArrayXd> columns;
  for (const auto& m : methods) {
    if (!m.error.empty() || m.freqs.inv_freq.size() != inv.size()) continue;
    out << ',' << m.label << (unseen ? " unseen" : "");
    columns.push_back(unseen ? pe::extrapolation_report(methods.front().freqs.inv_freq, train, m.freqs.inv_freq, length).unseen_fraction
                             : m.freqs.inv_freq);
  }
  out << "\n";
  for (Eigen::Index i = 0; i < inv.size(); ++i) {
    out << i << ',' << csv_number(d.rope.original_inv_freq[i]);
    for (const auto& c : columns) out << ',' << csv_number(c[i]);
    out << "\n";
  }
  return out.str();
}

}  // namespace

std::string scaling_methods_csv(const AppState& s, const Derived& d) { return method_table_csv(s, d, /*unseen=*/false); }
std::string extrapolation_csv(const AppState& s, const Derived& d) { return method_table_csv(s, d, /*unseen=*/true); }

std::vector<std::string> scaling_formula(const AppState& s, const Derived& d) {
  const auto& r = d.rope;
  const std::string method = pe::to_string(s.rope.scaling.type);
  std::vector<std::string> lines = {
      "linear θ_i' = θ_i/s;  NTK θ' = θ·s^(d/(d−2));  YaRN: ramp between the two by wavelength, attention × (0.1 ln s + 1)",
      formatted("%s, s = %g, L_orig = %lld:  effective θ = %.6g,  attention factor = %.4f", method.c_str(), r.factor,
                r.original_max_position_embeddings, r.effective_theta, r.attention_factor)};
  if (s.rope.query_scaling.active()) {
    const pe::QueryScaling& q = s.rope.query_scaling;
    lines.push_back(formatted("queries × 1 + %g·ln(1 + ⌊(p%s)/%lld⌋)%s:  ×%.4f at p = %lld", q.beta,
                              q.position_offset ? " + 1" : "", q.period, q.nope_layers_only ? " on the NoPE layers" : "",
                              pe::query_scale(q, s.length - 1), s.length - 1));
  }
  return lines;
}

std::vector<std::string> extrapolation_formula(const AppState& s, const Derived& d) {
  std::vector<std::string> lines = scaling_formula(s, d);
  const long long dim = d.rope.rotary_dim, train = s.rope.original_max_position_embeddings();
  if (dim >= 2 && s.rope.theta > 1.0) {
    const long long critical = pe::critical_dimension(s.rope.theta, dim, train);
    lines.push_back(formatted("critical dimension (Liu et al. 2023): d_extra = 2⌈(d/2)·log_θ(L_train/2π)⌉ = %lld of %lld  "
                              "(pairs below %lld turn fully within L_train = %lld)",
                              critical, dim, critical / 2, train));
  }
  return lines;
}

}  // namespace app
