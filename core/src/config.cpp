// Hugging Face config.json → RopeConfig, and the embedded model presets.
//
// Every field is read through a typed accessor that names the key on failure, so a bad
// file produces "rope_scaling.factor: expected a number, got string" instead of an
// exception from the JSON library (or a crash). Field names and fallbacks follow HF
// transformers' config classes.
#include "pe/config.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <utility>

#include "pe/errors.hpp"
#include "pe_presets.hpp"

namespace pe {

ConfigError::ConfigError(std::string key, std::string message)
    : std::runtime_error(key.empty() ? message : key + ": " + message), key_(std::move(key)) {}

namespace {

using json = nlohmann::json;

// Shortest round-trip text (pe::format_double), so a message shows exactly the rejected value.
std::string fmt(double v) { return format_double(v); }

// "string", "boolean", "array", "object", "number" — what the user wrote, for messages.
std::string kind(const json& j) { return j.type_name(); }

// Typed, key-naming access to one JSON object (the top level or a rope_scaling block).
class Fields {
 public:
  Fields(const json& obj, std::string prefix) : obj_(&obj), prefix_(std::move(prefix)) {}

  std::string key(const std::string& k) const { return prefix_.empty() ? k : prefix_ + "." + k; }
  const std::string& prefix() const { return prefix_; }

  // null counts as absent, as in HF (`rope_scaling: null`, `head_dim: null`).
  const json* find(const char* k) const {
    auto it = obj_->find(k);
    if (it == obj_->end() || it->is_null()) return nullptr;
    return &*it;
  }
  bool has(const char* k) const { return find(k) != nullptr; }

  std::optional<double> number(const char* k) const {
    const json* j = find(k);
    if (!j) return std::nullopt;
    return to_number(*j, key(k));
  }

  std::optional<long long> integer(const char* k, long long minimum, long long maximum) const {
    const json* j = find(k);
    if (!j) return std::nullopt;
    const std::string name = key(k);
    long long v = 0;
    if (j->is_number_integer() && !j->is_number_unsigned()) {
      v = j->get<long long>();
    } else if (j->is_number_unsigned()) {
      const auto u = j->get<unsigned long long>();
      if (u > static_cast<unsigned long long>(maximum))
        throw ConfigError(name, "out of range (got " + std::to_string(u) + ", allowed " + std::to_string(minimum) +
                                    " ... " + std::to_string(maximum) + ")");
      v = static_cast<long long>(u);
    } else if (j->is_number_float()) {
      // Some exporters write 4096.0; accept integral values only, checked before casting.
      const double d = j->get<double>();
      if (!std::isfinite(d)) throw ConfigError(name, "number out of range (" + fmt(d) + ")");
      if (d != std::floor(d)) throw ConfigError(name, "expected an integer, got " + fmt(d));
      if (d < static_cast<double>(minimum) || d > static_cast<double>(maximum))
        throw ConfigError(name, "out of range (got " + fmt(d) + ", allowed " + std::to_string(minimum) + " ... " +
                                    std::to_string(maximum) + ")");
      v = static_cast<long long>(d);
    } else {
      throw ConfigError(name, "expected an integer, got " + kind(*j));
    }
    if (v < minimum || v > maximum)
      throw ConfigError(name, "out of range (got " + std::to_string(v) + ", allowed " + std::to_string(minimum) +
                                  " ... " + std::to_string(maximum) + ")");
    return v;
  }

  std::optional<std::string> string(const char* k) const {
    const json* j = find(k);
    if (!j) return std::nullopt;
    if (!j->is_string()) throw ConfigError(key(k), "expected a string, got " + kind(*j));
    return j->get<std::string>();
  }

  std::optional<bool> boolean(const char* k) const {
    const json* j = find(k);
    if (!j) return std::nullopt;
    if (!j->is_boolean()) throw ConfigError(key(k), "expected true or false, got " + kind(*j));
    return j->get<bool>();
  }

  std::optional<std::vector<double>> number_list(const char* k) const {
    const json* j = find(k);
    if (!j) return std::nullopt;
    if (!j->is_array()) throw ConfigError(key(k), "expected a list of numbers, got " + kind(*j));
    std::vector<double> out;
    out.reserve(j->size());
    for (std::size_t i = 0; i < j->size(); ++i) out.push_back(to_number((*j)[i], key(k) + "[" + std::to_string(i) + "]"));
    return out;
  }

  std::optional<Fields> object(const char* k) const {
    const json* j = find(k);
    if (!j) return std::nullopt;
    if (!j->is_object()) throw ConfigError(key(k), "expected an object or null, got " + kind(*j));
    return Fields(*j, key(k));
  }

 private:
  static double to_number(const json& j, const std::string& name) {
    if (!j.is_number()) throw ConfigError(name, "expected a number, got " + kind(j));
    const double d = j.get<double>();
    // nlohmann turns 1e400 into inf rather than failing; refuse it here.
    if (!std::isfinite(d)) throw ConfigError(name, "number out of range (" + fmt(d) + ")");
    return d;
  }

  const json* obj_;  // pointer, not reference: Fields is reassigned
  std::string prefix_;
};

const char* const kRopeTypeList = "default, linear, ntk, dynamic, yarn, llama3, longrope (aliases: su, mrope)";

std::string missing_for(RopeType t) { return std::string("missing (required for rope_type \"") + to_string(t) + "\")"; }

void read_scaling(const Fields& f, RopeConfig& c) {
  RopeScaling& s = c.scaling;
  std::optional<std::string> type_text = f.string("rope_type");
  std::string type_key = f.key("rope_type");
  if (!type_text) {
    type_text = f.string("type");  // the pre-2024 spelling
    type_key = f.key("type");
  }
  if (!type_text) throw ConfigError(f.key("rope_type"), "missing (give \"rope_type\" or \"type\")");
  try {
    s.type = rope_type_from_string(*type_text);
  } catch (const InvalidArgument&) {
    throw ConfigError(type_key, "unknown rope type \"" + *type_text + "\"; expected one of " + kRopeTypeList);
  }

  const auto factor = f.number("factor");
  if (factor) s.factor = *factor;
  else if (s.type != RopeType::Default && s.type != RopeType::LongRope)
    throw ConfigError(f.key("factor"), missing_for(s.type));

  if (auto v = f.integer("original_max_position_embeddings", 1, kMaxLength)) s.original_max_position_embeddings = *v;

  if (auto v = f.number("beta_fast")) s.beta_fast = *v;
  if (auto v = f.number("beta_slow")) s.beta_slow = *v;
  if (auto v = f.number("mscale")) s.mscale = *v;
  if (auto v = f.number("mscale_all_dim")) s.mscale_all_dim = *v;
  if (auto v = f.number("attention_factor")) s.attention_factor = *v;
  if (auto v = f.boolean("truncate")) s.truncate = *v;

  if (s.type == RopeType::Llama3) {
    // HF requires all four for llama3 (`_validate_llama3_parameters`).
    if (!f.has("low_freq_factor")) throw ConfigError(f.key("low_freq_factor"), missing_for(s.type));
    if (!f.has("high_freq_factor")) throw ConfigError(f.key("high_freq_factor"), missing_for(s.type));
    if (!f.has("original_max_position_embeddings"))
      throw ConfigError(f.key("original_max_position_embeddings"), missing_for(s.type));
  }
  if (auto v = f.number("low_freq_factor")) s.low_freq_factor = *v;
  if (auto v = f.number("high_freq_factor")) s.high_freq_factor = *v;

  if (s.type == RopeType::LongRope) {
    if (!f.has("short_factor")) throw ConfigError(f.key("short_factor"), missing_for(s.type));
    if (!f.has("long_factor")) throw ConfigError(f.key("long_factor"), missing_for(s.type));
  }
  if (auto v = f.number_list("short_factor")) s.short_factor = std::move(*v);
  if (auto v = f.number_list("long_factor")) s.long_factor = std::move(*v);
}

PairConvention convention_from_text(const std::string& text, const std::string& key) {
  if (text == "interleaved") return PairConvention::Interleaved;
  if (text == "half-split") return PairConvention::HalfSplit;
  throw ConfigError(key, "expected \"interleaved\" or \"half-split\", got \"" + text + "\"");
}

RopeConfig parse_object(const json& root, const std::string& name) {
  if (!root.is_object()) throw ConfigError("", "expected a JSON object at the top level, got " + kind(root));
  const Fields top(root, "");
  RopeConfig c;
  c.name = name;
  if (auto v = top.string("pe_viz_name")) c.name = *v;
  if (auto v = top.string("pe_viz_title")) c.title = *v;
  if (auto v = top.string("pe_viz_source")) c.source = *v;

  // Newer transformers (v5) keep theta and the scaling in `rope_parameters`; older files
  // use top-level rope_theta and `rope_scaling`. Models with several layer types nest one
  // block per type: use the full-attention one.
  std::optional<Fields> params = top.object("rope_parameters");
  if (params && !params->has("rope_type") && !params->has("type") && params->has("full_attention"))
    params = params->object("full_attention");

  // rope_theta (GPT-NeoX files call it rotary_emb_base); HF's default is 10000.
  c.theta = 10000.0;
  if (auto v = top.number("rotary_emb_base")) c.theta = *v;
  if (auto v = top.number("rope_theta")) c.theta = *v;
  if (params) if (auto v = params->number("rope_theta")) c.theta = *v;

  // head_dim: DeepSeek's MLA rotates only qk_rope_head_dim dims (HF DeepseekV3Config sets
  // head_dim to it); else head_dim; else hidden_size // num_attention_heads as HF does.
  if (auto v = top.integer("qk_rope_head_dim", 1, kMaxDim)) {
    c.head_dim = *v;
  } else if (auto h = top.integer("head_dim", 1, kMaxDim)) {
    c.head_dim = *h;
  } else {
    const auto hidden = top.integer("hidden_size", 1, std::numeric_limits<long long>::max() / 2);
    const auto heads = top.integer("num_attention_heads", 1, std::numeric_limits<long long>::max() / 2);
    if (!hidden && !heads)
      throw ConfigError("head_dim", "missing (give head_dim, or hidden_size and num_attention_heads)");
    if (!hidden) throw ConfigError("hidden_size", "missing (needed with num_attention_heads when head_dim is absent)");
    if (!heads) throw ConfigError("num_attention_heads", "missing (needed with hidden_size when head_dim is absent)");
    const long long d = *hidden / *heads;
    if (d < 1 || d > kMaxDim)
      throw ConfigError("hidden_size", "hidden_size / num_attention_heads = " + std::to_string(d) +
                                           " is not a usable head_dim (1 ... " + std::to_string(kMaxDim) + ")");
    c.head_dim = d;
  }

  // partial_rotary_factor; GPT-NeoX calls it rotary_pct; GPT-J gives rotary_dim in dims.
  c.partial_rotary_factor = 1.0;
  if (auto v = top.integer("rotary_dim", 1, kMaxDim)) {
    if (*v > c.head_dim)
      throw ConfigError("rotary_dim", "got " + std::to_string(*v) + ", larger than head_dim = " + std::to_string(c.head_dim));
    c.partial_rotary_factor = static_cast<double>(*v) / static_cast<double>(c.head_dim);
  }
  if (auto v = top.number("rotary_pct")) c.partial_rotary_factor = *v;
  if (auto v = top.number("partial_rotary_factor")) c.partial_rotary_factor = *v;
  if (params) if (auto v = params->number("partial_rotary_factor")) c.partial_rotary_factor = *v;

  // max_position_embeddings (GPT-2/GPT-J: n_positions).
  std::optional<long long> max_pos = top.integer("max_position_embeddings", 1, kMaxLength);
  if (!max_pos) max_pos = top.integer("n_positions", 1, kMaxLength);
  if (!max_pos) throw ConfigError("max_position_embeddings", "missing");
  c.max_position_embeddings = *max_pos;

  // Convention: HF checkpoints use rotate_half unless the model says otherwise
  // (DeepSeek-V3: rope_interleave = true).
  c.convention = PairConvention::HalfSplit;
  if (auto v = top.boolean("rope_interleave")) c.convention = *v ? PairConvention::Interleaved : PairConvention::HalfSplit;
  if (auto v = top.string("pe_viz_convention")) c.convention = convention_from_text(*v, "pe_viz_convention");

  std::optional<Fields> scaling = params;
  if (!scaling) scaling = top.object("rope_scaling");
  if (scaling) read_scaling(*scaling, c);

  // Phi-3 keeps the pretraining length at the top level.
  if (c.scaling.original_max_position_embeddings == 0)
    if (auto v = top.integer("original_max_position_embeddings", 1, kMaxLength))
      c.scaling.original_max_position_embeddings = *v;

  try {
    validate(c);
  } catch (const InvalidArgument& e) {
    // validate() names fields "rope_scaling.x"; report the block the file actually used.
    std::string key = e.parameter();
    const std::string block = scaling ? scaling->prefix() : std::string("rope_scaling");
    if (key.rfind("rope_scaling.", 0) == 0) key = block + key.substr(std::string("rope_scaling").size());
    throw ConfigError(key, "got " + e.value() + "; allowed: " + e.allowed());
  }
  return c;
}

std::string strip_nlohmann_prefix(std::string what) {
  // "[json.exception.parse_error.101] parse error at line 3, column 1: ..." → from "parse error".
  if (!what.empty() && what.front() == '[') {
    const auto end = what.find("] ");
    if (end != std::string::npos) what = what.substr(end + 2);
  }
  return what;
}

// SAX listener that only tracks where the parser is ("rope_scaling.long_factor[3]"), so a
// syntax error can be reported against the key it occurred in.
class KeyPathTracker : public nlohmann::json_sax<json> {
 public:
  std::string error_path;

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override {
    stack_.push_back({false, {}, 0});
    return true;
  }
  bool key(string_t& k) override {
    if (!stack_.empty()) stack_.back().key = k;
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override {
    stack_.push_back({true, {}, 0});
    return true;
  }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    for (const Frame& f : stack_) {
      if (error_path.size() > 120) {  // absurdly deep input: the start is enough
        error_path += "...";
        break;
      }
      // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "[" + std::string.
      if (f.array) {
        error_path += '[';
        error_path += std::to_string(f.index);
        error_path += ']';
      } else if (!f.key.empty()) {
        if (!error_path.empty()) error_path += '.';
        error_path += f.key;
      }
    }
    return false;
  }

 private:
  struct Frame {
    bool array;
    std::string key;
    std::size_t index;
  };
  // A finished value: the next array slot, or no key until the next one is read (an
  // error between members belongs to the enclosing object).
  bool value() {
    if (stack_.empty()) return true;
    if (stack_.back().array) ++stack_.back().index;
    else stack_.back().key.clear();
    return true;
  }
  bool close() {
    if (!stack_.empty()) stack_.pop_back();
    return value();
  }
  std::vector<Frame> stack_;
};

struct PresetEntry {
  PresetInfo info;
  RopeConfig config;
};

const std::vector<PresetEntry>& preset_table() {
  // Parsed once; the GUI may list presets every frame.
  static const std::vector<PresetEntry> table = [] {
    std::vector<PresetEntry> out;
    for (const auto& file : pe_presets::files()) {
      const std::string file_name = file.name;
      std::string stem = file_name;
      if (const auto dot = stem.rfind('.'); dot != std::string::npos) stem.resize(dot);
      RopeConfig c;
      try {
        c = parse_hf_config(std::string(file.text()), stem);
      } catch (const ConfigError& e) {
        throw ConfigError(e.key(), std::string("embedded preset ") + file_name + ": " + e.what());
      }
      out.push_back({PresetInfo{c.name, c.title.empty() ? c.name : c.title, c.source}, std::move(c)});
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

}  // namespace

RopeConfig parse_hf_config(const std::string& json_text, const std::string& name) {
  json root;
  try {
    root = json::parse(json_text);
  } catch (const json::exception& e) {
    // parse_error for syntax, out_of_range for "number overflow" (1e400). Re-read up to
    // the error to say which key it is in; the message keeps nlohmann's line/column.
    KeyPathTracker tracker;
    try {
      json::sax_parse(json_text, &tracker);
    } catch (const json::exception&) {
    }
    std::string message = strip_nlohmann_prefix(e.what());
    if (const auto* pe = dynamic_cast<const json::parse_error*>(&e)) message += " (byte " + std::to_string(pe->byte) + ")";
    throw ConfigError(tracker.error_path, message);
  }
  try {
    return parse_object(root, name);
  } catch (const ConfigError&) {
    throw;
  } catch (const json::exception& e) {
    // Not expected (every access is type-checked) but never let a library exception escape.
    throw ConfigError("", strip_nlohmann_prefix(e.what()));
  }
}

RopeConfig load_hf_config(const std::filesystem::path& path) {
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
  // Name it after the model directory when the file is the usual <model>/config.json.
  std::string name = path.filename().string();
  if (name == "config.json" && path.has_parent_path() && !path.parent_path().filename().empty())
    name = path.parent_path().filename().string();
  return parse_hf_config(text.str(), name);
}

std::vector<PresetInfo> list_presets() {
  std::vector<PresetInfo> out;
  for (const auto& e : preset_table()) out.push_back(e.info);
  return out;
}

RopeConfig load_preset(const std::string& key) {
  const auto& table = preset_table();
  for (const auto& e : table)
    if (e.info.key == key) return e.config;
  std::string keys;
  for (const auto& e : table) keys += (keys.empty() ? "" : ", ") + e.info.key;
  throw InvalidArgument("preset", "\"" + key + "\"", "one of the bundled presets: " + keys);
}

}  // namespace pe
