#pragma once
// A model's weights dropped onto the window (issue 26): a model folder, a .safetensors file or
// a model.safetensors.index.json opens in the frequency-usage view; a .gguf opens there too
// and is loaded as a configuration as well (as before). Called by load_dropped_files for each
// path before it tries the path as a configuration.
#include <string>

#include "state/app_state.hpp"
#include "ui/file_actions.hpp"

namespace app {

// Returns true when `path` was taken as weights only (the caller skips it); false for a
// .gguf (also a configuration) and for anything that is not weights.
bool open_dropped_weights(AppState& state, const std::string& path, StatusLine& status, double now);

}  // namespace app
