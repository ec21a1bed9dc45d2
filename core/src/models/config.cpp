// Hugging Face config.json → RopeConfig (the steps are config_reading.hpp's), the embedded
// model presets, and the inspector's entry points.
#include "pe/models/config.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <utility>

#include "config_resolve.hpp"
#include "multimodal_config_reader.hpp"  // issue 12: vision_config, M-RoPE, axial
#include "pe/base/errors.hpp"
#include "pe_presets.hpp"

namespace pe {

ConfigError::ConfigError(std::string key, std::string message)
    : std::runtime_error(key.empty() ? message : key + ": " + message), key_(std::move(key)) {}

namespace {
std::string not_rotary_message(const PositionEncodingInfo& info, const std::string& name) {
  std::string m = name + " (" + (info.model_type.empty() ? std::string("no model_type") : "model_type " + info.model_type) +
                  ") does not rotate: its positions are " + describe_position_encoding(info) +
                  ". RoPE views and RoPE numbers do not describe it";
  return m;
}
}  // namespace

NotRotaryError::NotRotaryError(PositionEncodingInfo info, const std::string& name)
    : ConfigError(info.decided_by.empty() ? "model_type" : info.decided_by, not_rotary_message(info, name)),
      info_(std::move(info)) {}

std::string read_config_text(const std::filesystem::path& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw ConfigError("", "cannot read " + path.string() + ": " + ec.message());
  // Real config.json files are a few KiB; refuse anything absurd instead of reading it.
  constexpr std::uintmax_t kMaxBytes = 64u << 20;
  if (size > kMaxBytes) throw ConfigError("", path.string() + " is too large for a config.json (" + std::to_string(size) + " bytes)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError("", "cannot open " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ConfigError("", "error reading " + path.string());
  return text.str();
}

namespace {

using detail::json;

detail::Resolution resolve_text(const std::string& json_text, const std::string& name) {
  const json root = detail::parse_json_text(json_text);
  try {
    return resolve_multimodal_config(root, name, detail::resolve_config);
  } catch (const ConfigError&) {
    throw;
  } catch (const json::exception& e) {
    // Not expected (every access is type-checked) but never let a library exception escape.
    std::string what = e.what();
    if (const auto end = what.find("] "); !what.empty() && what.front() == '[' && end != std::string::npos)
      what = what.substr(end + 2);
    throw ConfigError("", what);
  }
}


// Name it after the model directory when the file is the usual <model>/config.json.
std::string config_name(const std::filesystem::path& path) {
  std::string name = path.filename().string();
  if (name == "config.json" && path.has_parent_path() && !path.parent_path().filename().empty())
    name = path.parent_path().filename().string();
  return name;
}

struct PresetEntry {
  PresetInfo info;
  LoadedConfig loaded;
  std::string text;
};

const std::vector<PresetEntry>& preset_table() {
  // Parsed once; the GUI may list presets every frame.
  static const std::vector<PresetEntry> table = [] {
    std::vector<PresetEntry> out;
    for (const auto& file : pe_presets::files()) {
      const std::string file_name = file.name;
      std::string stem = file_name;
      if (const auto dot = stem.rfind('.'); dot != std::string::npos) stem.resize(dot);
      LoadedConfig loaded;
      std::string text(file.text());
      try {
        loaded = parse_hf_config_diagnosed(text, stem);
      } catch (const ConfigError& e) {
        throw ConfigError(e.key(), std::string("embedded preset ") + file_name + ": " + e.what());
      }
      const RopeConfig& c = loaded.config;
      PresetInfo info{c.name, c.title.empty() ? c.name : c.title, c.source, loaded.encoding.family};
      out.push_back({std::move(info), std::move(loaded), std::move(text)});
    }
    // The teaching preset first (the app's default), the rest by key.
    std::sort(out.begin(), out.end(), [](const PresetEntry& a, const PresetEntry& b) {
      const bool ta = a.info.key == kTeachingPreset, tb = b.info.key == kTeachingPreset;
      if (ta != tb) return ta;
      return a.info.key < b.info.key;
    });
    return out;
  }();
  return table;
}

const PresetEntry& find_preset(const std::string& key) {
  const auto& table = preset_table();
  for (const auto& e : table)
    if (e.info.key == key) return e;
  std::string keys;
  for (const auto& e : table) keys += (keys.empty() ? "" : ", ") + e.info.key;
  throw InvalidArgument("preset", "\"" + key + "\"", "one of the bundled presets: " + keys);
}

}  // namespace

LoadedConfig parse_hf_config_diagnosed(const std::string& json_text, const std::string& name) {
  detail::Resolution r = resolve_text(json_text, name);
  if (!r.valid) detail::throw_first_error(r);
  return std::move(r.loaded);
}

LoadedConfig load_hf_config_diagnosed(const std::filesystem::path& path) {
  return parse_hf_config_diagnosed(read_config_text(path), config_name(path));
}

RopeConfig parse_hf_config(const std::string& json_text, const std::string& name) {
  LoadedConfig loaded = parse_hf_config_diagnosed(json_text, name);
  if (!loaded.encoding.rotates()) throw NotRotaryError(std::move(loaded.encoding), name);
  return std::move(loaded.config);
}

RopeConfig load_hf_config(const std::filesystem::path& path) {
  LoadedConfig loaded = load_hf_config_diagnosed(path);
  if (!loaded.encoding.rotates()) throw NotRotaryError(std::move(loaded.encoding), path.string());
  return std::move(loaded.config);
}

std::vector<PresetInfo> list_presets(PresetKinds kinds) {
  std::vector<PresetInfo> out;
  for (const auto& e : preset_table())
    if (kinds == PresetKinds::All || e.loaded.encoding.rotates()) out.push_back(e.info);
  return out;
}

RopeConfig load_preset(const std::string& key) {
  const PresetEntry& e = find_preset(key);
  if (!e.loaded.encoding.rotates()) throw NotRotaryError(e.loaded.encoding, "preset " + key);
  return e.loaded.config;
}

LoadedConfig load_preset_diagnosed(const std::string& key) { return find_preset(key).loaded; }

std::string preset_text(const std::string& key) { return find_preset(key).text; }

// ---- Inspector entry points (pe/models/config_diagnostics.hpp).

namespace {
InspectedConfig from_resolution(detail::Resolution r, std::string source) {
  InspectedConfig out;
  out.loaded = std::move(r.loaded);
  out.valid = r.valid;
  out.source = std::move(source);
  out.model_type = std::move(r.model_type);
  out.text_block = std::move(r.text_block);
  out.frameworks = std::move(r.context);
  out.shape = std::move(r.shape);
  if (out.valid && !out.loaded.encoding.rotates()) {
    // No rotary layers to plan: the plan says what the layers share instead.
    const PositionEncodingInfo& e = out.loaded.encoding;
    out.plan.notes.push_back({Severity::Info, "", std::string(to_string(e.family)) + ": " + e.shared});
  } else if (out.valid) {
    out.plan = layer_plan(out.loaded.config, r.schedule);
  } else {
    out.plan.notes = r.schedule.notes;
  }
  return out;
}

InspectedConfig inspect_text(const std::string& json_text, const std::string& name, const std::string& source) {
  const json root = detail::parse_json_text(json_text);
  try {
    return from_resolution(resolve_multimodal_config(root, name, detail::resolve_config), source);
  } catch (const ConfigError& e) {
    // A value of the wrong JSON type: nothing consistent to show beyond the error.
    InspectedConfig out;
    out.valid = false;
    out.source = source;
    out.loaded.config.name = name;
    out.loaded.diagnostics.push_back({Severity::Error, e.key(), e.key().empty() ? e.what() : std::string(e.what()).substr(e.key().size() + 2)});
    return out;
  }
}
}  // namespace

InspectedConfig inspect_hf_config(const std::string& json_text, const std::string& name) {
  return inspect_text(json_text, name, name);
}

InspectedConfig inspect_hf_config_file(const std::filesystem::path& path) {
  return inspect_text(read_config_text(path), config_name(path), path.string());
}

InspectedConfig inspect_preset(const std::string& key) {
  const PresetEntry& e = find_preset(key);
  return inspect_text(e.text, key, "preset:" + key);
}

InspectedConfig inspect_loaded(const LoadedConfig& loaded, const std::string& source) {
  InspectedConfig out;
  out.loaded = loaded;
  out.source = source;
  for (const auto& d : loaded.diagnostics)
    if (d.severity == Severity::Error) out.valid = false;
  if (!loaded.encoding.rotates()) {
    out.loaded.diagnostics.push_back({Severity::Info, "", std::string(to_string(loaded.encoding.family)) + ": " + loaded.encoding.shared});
    return out;
  }
  try {
    validate(loaded.config);
  } catch (const InvalidArgument& e) {
    out.valid = false;
    out.loaded.diagnostics.push_back({Severity::Error, e.parameter(), "got " + e.value() + "; allowed: " + e.allowed()});
  }
  if (out.valid) out.plan = layer_plan(out.loaded);
  return out;
}

LayerPlan layer_plan(const std::string& config_json_text) {
  detail::Resolution r = resolve_text(config_json_text, "config.json");
  if (!r.valid) detail::throw_first_error(r);
  if (!r.loaded.encoding.rotates()) throw NotRotaryError(r.loaded.encoding, "config.json");
  return layer_plan(r.loaded.config, r.schedule);
}

}  // namespace pe
