#include "state/model_inspection.hpp"

#include <map>
#include <system_error>

#include "pe/base/errors.hpp"
#include "pe/models/inspection_text.hpp"
#include "state/app_state.hpp"
#include "state/derived.hpp"

namespace app {
namespace {

constexpr std::string_view kPresetPrefix = "preset:";

bool starts_with(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

// The file's modification time as text, so a cached inspection is redone when the file changes.
std::string stamp(const std::string& path) {
  std::error_code ec;
  const auto t = std::filesystem::last_write_time(path, ec);
  // (libc++ counts file times in a 128-bit integer, which std::to_string does not take.)
  return ec ? std::string("?") : std::to_string(static_cast<long long>(t.time_since_epoch().count()));
}

// A config.json beside a GGUF (a converted folder often keeps it), else "".
std::string config_beside(const std::string& gguf_path) {
  const std::filesystem::path candidate = std::filesystem::path(gguf_path).parent_path() / "config.json";
  std::error_code ec;
  return std::filesystem::is_regular_file(candidate, ec) ? candidate.string() : std::string();
}

}  // namespace

ModelInspection inspect_source(const std::string& source, const std::string& conversion_config) {
  ModelInspection m;
  m.source = source;
  if (starts_with(source, kPresetPrefix)) {
    m.inspected = pe::inspect_preset(source.substr(kPresetPrefix.size()));
  } else if (is_gguf_path(source)) {
    pe::GgufModelConfig g = pe::load_gguf_config(source);
    m.inspected = pe::inspect_loaded(g.loaded, source);
    m.inspected.model_type = g.architecture;
    if (!conversion_config.empty()) {
      const pe::RopeConfig hf = pe::load_hf_config(conversion_config);
      m.conversion = pe::compare_conversion(g, hf, pe::hf_checkpoint_layout_file(conversion_config));
      m.conversion_config = conversion_config;
    }
    m.gguf = GgufSummary{std::move(g.architecture), g.rope_mode, std::move(g.positional)};
  } else {
    m.inspected = pe::inspect_hf_config_file(source);
  }
  return m;
}

const ModelInspection& model_inspection(const AppState& state) {
  // One entry per source (compare's two sides or a test's sessions may differ); small.
  struct Entry {
    std::string key, rope_key;  // rope_key: set when the entry describes the state's own configuration
    ModelInspection value;
  };
  static std::map<std::string, Entry> cache;
  const std::string& source = state.model_source;
  const bool file = !source.empty() && !starts_with(source, kPresetPrefix);
  const std::string key = source + "|" + (file ? stamp(source) : std::string());
  const std::string rope_key = rope_input_key(state.rope, 0);
  auto it = cache.find(source);
  if (it != cache.end() && it->second.key == key && (it->second.rope_key.empty() || it->second.rope_key == rope_key))
    return it->second.value;
  if (cache.size() > 16) cache.clear();
  Entry entry{key, "", {}};
  try {
    if (source.empty()) throw pe::InvalidArgument("model_source", "(none)", "a preset or a file the configuration came from");
    entry.value = inspect_source(source, is_gguf_path(source) ? config_beside(source) : std::string());
  } catch (const std::exception& e) {
    // Describe the configuration on screen instead, and say why.
    entry.value = ModelInspection{};
    entry.value.source = source;
    entry.value.error = source.empty() ? std::string("a hand-made configuration: no file or preset to read") : e.what();
    pe::LoadedConfig loaded;
    loaded.config = state.rope;
    loaded.encoding = state.model_encoding;  // a model that does not rotate stays what it is
    entry.value.inspected = pe::inspect_loaded(loaded, "the current configuration");
    entry.rope_key = rope_key;
  }
  Entry& stored = cache[source] = std::move(entry);
  return stored.value;
}

std::string edits_since_source(const AppState& state, const ModelInspection& m) {
  // A model that does not rotate has no RoPE to have edited (state.rope is an illustration).
  if (!m.error.empty() || !m.inspected.valid || !m.inspected.loaded.encoding.rotates()) return "";
  const pe::RopeConfig& a = m.inspected.loaded.config;
  const pe::RopeConfig& b = state.rope;
  std::string out;
  auto add = [&](const std::string& what, const std::string& from, const std::string& to) {
    if (from == to) return;
    out += (out.empty() ? "" : ", ") + what + " " + from + " → " + to;
  };
  add("theta", pe::plain_number(a.theta), pe::plain_number(b.theta));
  add("dim", std::to_string(a.head_dim), std::to_string(b.head_dim));
  add("rotary dims", std::to_string(a.rotary_dim()), std::to_string(b.rotary_dim()));
  add("pairs", pe::to_string(a.convention), pe::to_string(b.convention));
  add("scaling", pe::describe_scaling(a), pe::describe_scaling(b));
  return out;
}

}  // namespace app
