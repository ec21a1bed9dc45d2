#pragma once
// The same model under every RoPE scaling method, for the scaling and extrapolation views.
#include <string>
#include <vector>

#include "pe/scaling.hpp"

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

}  // namespace app
