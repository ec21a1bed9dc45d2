#pragma once
// The same model under every RoPE scaling method, for the scaling and extrapolation views.
#include <string>
#include <vector>

#include "pe/scaling/scaling.hpp"
#include "state/app_state.hpp"
#include "state/derived.hpp"

namespace app {

struct MethodFrequencies {
  std::string label;            // "linear", "yarn", "longrope (long)" ...
  pe::RopeType type;
  pe::ScaledFrequencies freqs;  // valid when error is empty
  std::string error;            // e.g. longrope without factor lists
};

// `base` with its scaling type replaced by each method (factor: base's, or 4 when base is
// unscaled), evaluated at `length`. LongRoPE appears twice (short and long factors) when
// the config carries factor lists. Cached on the inputs.
const std::vector<MethodFrequencies>& all_method_frequencies(const pe::RopeConfig& base, long long length);

// The factor the comparison uses.
double comparison_factor(const pe::RopeConfig& base);

// The inference length the extrapolation view and its CSV show: the length slider when it
// is past the training length, else kExtrapolationShownMultiple × L_train (capped at 10^6),
// so the view never opens on an empty picture; the view says which.
inline constexpr long long kExtrapolationShownMultiple = 4;
long long extrapolation_length(const AppState& state);

// CSV per pair: every method's θ'_i (scaling view) or the fraction of positions < L at an
// unseen angle (extrapolation view).
std::string scaling_methods_csv(const AppState& state, const Derived& derived);
std::string extrapolation_csv(const AppState& state, const Derived& derived);
// The scaling formulas with the current method's numbers (scaling, extrapolation, compare).
std::vector<std::string> scaling_formula(const AppState& state, const Derived& derived);
// The same with Liu et al.'s critical dimension (the extrapolation view marks it).
std::vector<std::string> extrapolation_formula(const AppState& state, const Derived& derived);

}  // namespace app
