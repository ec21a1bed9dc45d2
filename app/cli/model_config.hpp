#pragma once
// --model ORG/NAME[@REVISION] in dump, inspect and the GUI's options: the config.json from the
// local Hugging Face cache, else from the Hub into that cache (state/hub_config.hpp), waiting
// for it here with the announcements and a progress line on stderr and Ctrl-C to stop.
#include <iosfwd>
#include <string>

namespace app {

// Throws pe::HfCacheError, pe::HubError, pe::WeightsCancelled (Ctrl-C: nothing half-written).
void ensure_model_config(const std::string& model, std::ostream* err = nullptr);

}  // namespace app
