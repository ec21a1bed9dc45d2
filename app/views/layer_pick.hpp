#pragma once
// What a click on a row of the layers view does, for the keyboard, lessons and tests:
// layer `index` of the current model's plan becomes the current RoPE configuration.
#include "state/app_state.hpp"

namespace app {

// False (and nothing changes) for a layer without RoPE (NoPE) or an index outside the plan.
bool pick_layer(AppState& state, long long index);

}  // namespace app
