#pragma once
// A model's weights dropped onto the window (issue 26; issue 33): a model folder, a
// .safetensors file or a model.safetensors.index.json opens in the view that draws what
// training made of its positions — the frequency-usage view for a model that rotates, the
// learned view for a learned (or stored sinusoidal) table, the t5-bias view for T5's bias —
// as its config.json (or GGUF header) says; a .gguf of a rotary model is loaded as a
// configuration as well (as before). Called by load_dropped_files for each path before it
// tries the path as a configuration; in the browser the dropped files are in the page's
// working folder, so a model.safetensors dropped with its config.json opens the same way.
#include <string>

#include "state/app_state.hpp"
#include "ui/file_actions.hpp"

namespace app {

// Returns true when `path` was taken as weights only (the caller skips it); false for a
// rotary .gguf (also a configuration) and for anything that is not weights.
bool open_dropped_weights(AppState& state, const std::string& path, StatusLine& status, double now);

}  // namespace app
