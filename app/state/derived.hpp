#pragma once
// Core results derived from AppState, recomputed only when their inputs change.
#include <array>
#include <string>
#include <vector>

#include "pe/analysis/analysis.hpp"
#include "pe/scaling/scaling.hpp"
#include "state/app_state.hpp"

namespace app {

struct Derived {
  std::string error;            // non-empty: the state is invalid; views show this instead
  pe::ScaledFrequencies rope;   // scaled inverse frequencies at state.length (after the p-RoPE control)
  Eigen::ArrayXd inv_freq_before_p_rope;     // rope.inv_freq before state.p_rope dropped pairs
  std::vector<float> rope_inv_freq_f;        // for the GPU
  Eigen::ArrayXd sinusoidal_freq;            // theta^(-2i/d), ceil(d/2) entries
  std::vector<float> sinusoidal_freq_f;
  unsigned long long version = 0;            // bumps whenever anything above changes
  std::string input_key;                     // the inputs these were computed from
};

// Exact text of every RoPE input (theta, dims, every scaling field and list value) and
// the length: equal keys mean equal frequencies.
std::string rope_input_key(const pe::RopeConfig& rope, long long length);

// The attention patterns' inputs for this state: the same seeded tokens, the (scaled)
// RoPE frequencies and convention, the selected ALiBi head; at most kAttentionLength
// positions (patterns are length² cells). Shared by the attention view and its CSV.
inline constexpr long long kAttentionLength = 64;
// Issue 32 adds T5's bias (the illustrative table, head `head`), KERPLE log (r1, r2) and xPos
// (scale_base) beside the first five.
inline constexpr std::array<pe::AttentionMethod, 8> kAttentionMethods = {
    pe::AttentionMethod::NoPosition, pe::AttentionMethod::Sinusoidal, pe::AttentionMethod::Learned,
    pe::AttentionMethod::Rope,       pe::AttentionMethod::Alibi,      pe::AttentionMethod::T5Bias,
    pe::AttentionMethod::Kerple,     pe::AttentionMethod::Xpos};
pe::AttentionParams attention_params(const AppState& state, const Derived& derived);

// Cheap when nothing relevant changed (compares a key of the inputs).
void update_derived(const AppState& state, Derived& derived);

}  // namespace app
