#pragma once
// What a model source says about positions, for `pe-viz inspect` and the inspector and
// layers views: core's inspection (keys, defaults, diagnostics, layer plan, framework hints),
// the GGUF header's positional keys when the source is a .gguf, and — given the config.json
// a GGUF was converted from — which pair convention each side uses and whether the q/k
// rows were permuted. Read once per source; the views draw from the cache.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "pe/models/config_diagnostics.hpp"
#include "pe/models/gguf_conversion.hpp"
#include "pe/models/gguf_rope.hpp"
#include "state/app_state.hpp"

namespace app {

struct GgufSummary {
  std::string architecture;
  pe::GgufRopeMode rope_mode = pe::GgufRopeMode::Unknown;
  std::vector<pe::GgufMetadataEntry> positional;  // every positional key and tensor
};

struct ModelInspection {
  std::string source;                          // as given: "preset:KEY" or a path ("" = the state's configuration)
  pe::InspectedConfig inspected;
  std::optional<GgufSummary> gguf;
  std::string conversion_config;               // the config.json compared with the GGUF ("" none)
  std::optional<pe::ConversionConventions> conversion;
  std::string error;                           // the source could not be read (inspected then describes the state)
};

// "preset:KEY", a config.json, a .gguf (with `conversion_config`: the config.json it came
// from), or "" for none. Throws pe::ConfigError / pe::GgufError / pe::InvalidArgument when
// a source cannot be read.
ModelInspection inspect_source(const std::string& source, const std::string& conversion_config = "");

// The inspection of state.model_source, cached until the source changes. A source that
// cannot be read any more (a moved file, an old session) gives the inspection of the
// state's own configuration with `error` saying why; so does a hand-made configuration.
// A GGUF is compared with a config.json in its folder when there is one.
const ModelInspection& model_inspection(const AppState& state);

// Where the state's configuration differs from the source's (edits, a picked layer):
// "theta 10000 → 1000000, scaling linear → default"; "" when it is the source's own.
std::string edits_since_source(const AppState& state, const ModelInspection& m);

}  // namespace app
