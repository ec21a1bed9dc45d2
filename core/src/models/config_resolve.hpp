#pragma once
// Internal to pe_core: config.json → RopeConfig + diagnostics + layer schedule + framework
// hints, in one pass shared by the loader (config.cpp), the inspector (config_inspect.cpp)
// and layer_plan(json text).
#include <string>

#include "json_fields.hpp"
#include "pe/models/config_diagnostics.hpp"

namespace pe::detail {

struct Resolution {
  LoadedConfig loaded;
  bool valid = true;
  std::string model_type;
  std::string text_block;
  LayerSchedule schedule;
  FrameworkContext context;
  ModelShape shape;
};

// Reads a parsed config.json. Malformed values (wrong JSON types, out-of-range integers)
// throw ConfigError naming the key; a value outside what pe-viz can compute (validate())
// is an Error diagnostic with valid = false, and the config keeps what was read.
Resolution resolve_config(const json& root, const std::string& name);

// The first Error diagnostic as a ConfigError (for the throwing entry points).
[[noreturn]] void throw_first_error(const Resolution& r);

}  // namespace pe::detail
