#include "state/derived.hpp"

#include <algorithm>
#include <atomic>
#include <sstream>

#include "pe/encodings/alibi.hpp"
#include "pe/base/errors.hpp"
#include "pe/encodings/rope.hpp"
#include "pe/encodings/sinusoidal.hpp"
#include "pe/relative/attention_inputs.hpp"
#include "state/relative_params.hpp"

namespace app {
namespace {

// Text key of every input the derived values depend on; exact (hexfloat) so any change
// in theta or a factor is seen.
std::string input_key(const AppState& s) {
  std::ostringstream p;
  p << std::hexfloat << s.p_rope;
  return rope_input_key(s.rope, s.length) + "|p" + p.str();
}

}  // namespace

std::string rope_input_key(const pe::RopeConfig& r, long long length) {
  std::ostringstream k;
  const auto& sc = r.scaling;
  k << std::hexfloat << r.theta << '|' << r.head_dim << '|' << r.partial_rotary_factor << '|'
    << r.max_position_embeddings << '|' << length << '|' << static_cast<int>(sc.type) << '|' << sc.factor
    << '|' << sc.original_max_position_embeddings << '|' << sc.beta_fast << '|' << sc.beta_slow << '|'
    << sc.mscale.value_or(-1) << '|' << sc.mscale_all_dim.value_or(-1) << '|' << sc.attention_factor.value_or(-1)
    << '|' << sc.low_freq_factor << '|' << sc.high_freq_factor << '|' << sc.truncate << '|'
    << sc.short_factor.size() << '|' << sc.long_factor.size() << '|' << r.softmax_mscale;
  for (double f : sc.short_factor) k << ',' << f;
  for (double f : sc.long_factor) k << ',' << f;
  return k.str();
}

namespace {

std::vector<float> to_float(const Eigen::ArrayXd& a) {
  std::vector<float> out(static_cast<std::size_t>(a.size()));
  for (Eigen::Index i = 0; i < a.size(); ++i) out[static_cast<std::size_t>(i)] = static_cast<float>(a[i]);
  return out;
}

}  // namespace

pe::AttentionParams attention_params(const AppState& s, const Derived& d) {
  pe::AttentionParams params;
  params.length = std::clamp<long long>(s.length, 1, kAttentionLength);
  params.dim = s.rope.head_dim;
  params.theta = s.rope.theta;
  params.rope_inv_freq = d.rope.inv_freq;
  params.convention = s.rope.convention;
  params.seed = s.seed;
  params.alibi_slope = pe::alibi_slopes(s.heads)[std::clamp<long long>(s.head, 1, s.heads) - 1];
  params.learned_sigma = 0.02;
  try {
    const pe::T5BucketParams t5 = t5_params(s);
    pe::set_relative_attention_inputs(params, t5, *t5_bias_table(s), selected_head(s) - 1, kerple_params(s), s.scale_base);
  } catch (const pe::InvalidArgument&) {
    // An invalid relative parameter (validate_state names it): those three panels say so.
  }
  return params;
}

void update_derived(const AppState& state, Derived& d) {
  std::string key = input_key(state);
  if (d.version != 0 && key == d.input_key) return;
  d.input_key = std::move(key);
  // Versions are unique across all Derived instances (A/B compare draws the same views
  // from two states), so view caches keyed on a version never mix them up.
  static std::atomic<unsigned long long> next_version{1};
  d.version = next_version++;
  d.error.clear();
  try {
    pe::require_length("length", state.length);
    d.rope = pe::scaled_frequencies(state.rope, state.length);
    d.inv_freq_before_p_rope = d.rope.inv_freq;
    pe::keep_fastest_pairs(d.rope, state.p_rope);
    d.rope_inv_freq_f = to_float(d.rope.inv_freq);
    d.sinusoidal_freq = pe::sinusoidal_frequencies(state.rope.head_dim, state.rope.theta);
    d.sinusoidal_freq_f = to_float(d.sinusoidal_freq);
  } catch (const std::exception& e) {
    d.error = e.what();
    d.rope = {};
    d.rope_inv_freq_f.clear();
    d.sinusoidal_freq_f.clear();
  }
}

}  // namespace app
