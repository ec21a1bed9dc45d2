#include "state/session_file.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include "pe/base/errors.hpp"
#include "pe/scaling/scaling.hpp"
#include "render/atomic_file.hpp"
#include "state/encoding_json.hpp"

namespace app {
namespace {

using nlohmann::json;

// Line and column of a byte offset, for "line 3, column 14: ..." messages.
std::string position_of(const std::string& text, std::size_t byte) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < std::min(byte, text.size()); ++i) {
    if (text[i] == '\n') { ++line; column = 1; } else { ++column; }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

template <class T>
T get_as(const json& j, const char* key) {
  try {
    if constexpr (std::is_same_v<T, double>) {
      if (!j.is_number()) throw SessionError(std::string(key) + ": expected a number, got " + j.type_name());
      const double v = j.get<double>();
      if (!std::isfinite(v)) throw SessionError(std::string(key) + ": expected a finite number");
      return v;
    } else if constexpr (std::is_same_v<T, std::uint64_t>) {
      if (!j.is_number_unsigned()) throw SessionError(std::string(key) + ": expected a non-negative integer, got " + j.dump());
      return j.get<T>();
    } else if constexpr (std::is_same_v<T, long long>) {
      if (!j.is_number_integer()) throw SessionError(std::string(key) + ": expected an integer, got " + j.type_name());
      return j.get<T>();
    } else if constexpr (std::is_same_v<T, bool>) {
      if (!j.is_boolean()) throw SessionError(std::string(key) + ": expected true or false, got " + j.type_name());
      return j.get<bool>();
    } else {
      if (!j.is_string()) throw SessionError(std::string(key) + ": expected a string, got " + j.type_name());
      return j.get<std::string>();
    }
  } catch (const json::exception& e) {
    throw SessionError(std::string(key) + ": " + e.what());
  }
}

json scaling_to_json(const pe::RopeScaling& s) {
  json j = {{"type", pe::to_string(s.type)},
            {"factor", s.factor},
            {"original_max_position_embeddings", s.original_max_position_embeddings},
            {"beta_fast", s.beta_fast},
            {"beta_slow", s.beta_slow},
            {"truncate", s.truncate},
            {"low_freq_factor", s.low_freq_factor},
            {"high_freq_factor", s.high_freq_factor},
            {"short_factor", s.short_factor},
            {"long_factor", s.long_factor}};
  if (s.mscale) j["mscale"] = *s.mscale;
  if (s.mscale_all_dim) j["mscale_all_dim"] = *s.mscale_all_dim;
  if (s.attention_factor) j["attention_factor"] = *s.attention_factor;
  return j;
}

std::vector<double> number_list(const json& j, const char* key) {
  if (!j.is_array()) throw SessionError(std::string(key) + ": expected a list of numbers, got " + j.type_name());
  std::vector<double> out;
  for (const auto& v : j) out.push_back(get_as<double>(v, key));
  return out;
}

void scaling_from_json(const json& j, pe::RopeScaling& s, std::vector<std::string>& warnings) {
  if (!j.is_object()) throw SessionError(std::string("rope.scaling: expected an object, got ") + j.type_name());
  for (const auto& [key, v] : j.items()) {
    const std::string k = "rope.scaling." + key;
    if (key == "type") {
      try {
        s.type = pe::rope_type_from_string(get_as<std::string>(v, k.c_str()));
      } catch (const pe::InvalidArgument& e) {
        throw SessionError(k + ": " + e.what());
      }
    } else if (key == "factor") s.factor = get_as<double>(v, k.c_str());
    else if (key == "original_max_position_embeddings") s.original_max_position_embeddings = get_as<long long>(v, k.c_str());
    else if (key == "beta_fast") s.beta_fast = get_as<double>(v, k.c_str());
    else if (key == "beta_slow") s.beta_slow = get_as<double>(v, k.c_str());
    else if (key == "truncate") s.truncate = get_as<bool>(v, k.c_str());
    else if (key == "low_freq_factor") s.low_freq_factor = get_as<double>(v, k.c_str());
    else if (key == "high_freq_factor") s.high_freq_factor = get_as<double>(v, k.c_str());
    else if (key == "short_factor") s.short_factor = number_list(v, k.c_str());
    else if (key == "long_factor") s.long_factor = number_list(v, k.c_str());
    else if (key == "mscale") s.mscale = get_as<double>(v, k.c_str());
    else if (key == "mscale_all_dim") s.mscale_all_dim = get_as<double>(v, k.c_str());
    else if (key == "attention_factor") s.attention_factor = get_as<double>(v, k.c_str());
    else warnings.push_back("unknown key '" + k + "' ignored");
  }
}

json rope_to_json(const pe::RopeConfig& r) {
  json j = {{"name", r.name},
          {"title", r.title},
          {"source", r.source},
          {"theta", r.theta},
          {"dim", r.head_dim},
          {"partial_rotary_factor", r.partial_rotary_factor},
          {"max_position_embeddings", r.max_position_embeddings},
          {"convention", pe::to_string(r.convention)},
          {"scaling", scaling_to_json(r.scaling)}};
  if (r.softmax_mscale) j["softmax_mscale"] = true;  // DeepSeek-style attention (written only then)
  return j;
}

void rope_from_json(const json& v, const std::string& prefix, pe::RopeConfig& rope, std::vector<std::string>& warnings) {
  if (!v.is_object()) throw SessionError(prefix + ": expected an object, got " + v.type_name());
  for (const auto& [rk, rv] : v.items()) {
    const std::string full = prefix + "." + rk;
    const char* fk = full.c_str();
    if (rk == "name") rope.name = get_as<std::string>(rv, fk);
    else if (rk == "title") rope.title = get_as<std::string>(rv, fk);
    else if (rk == "source") rope.source = get_as<std::string>(rv, fk);
    else if (rk == "theta") rope.theta = get_as<double>(rv, fk);
    else if (rk == "dim") rope.head_dim = get_as<long long>(rv, fk);
    else if (rk == "partial_rotary_factor") rope.partial_rotary_factor = get_as<double>(rv, fk);
    else if (rk == "max_position_embeddings") rope.max_position_embeddings = get_as<long long>(rv, fk);
    else if (rk == "convention") {
      try {
        rope.convention = pe::pair_convention_from_string(get_as<std::string>(rv, fk));
      } catch (const pe::InvalidArgument& e) {
        throw SessionError(full + ": " + e.what());
      }
    } else if (rk == "scaling") scaling_from_json(rv, rope.scaling, warnings);
    else if (rk == "softmax_mscale") rope.softmax_mscale = get_as<bool>(rv, fk);
    else warnings.push_back("unknown key '" + full + "' ignored");
  }
}

}  // namespace

std::string session_to_json(const AppState& s) {
  const auto& r = s.rope;
  json j = {
      {"pe_viz_session", kSessionVersion},
      {"view", s.view},
      {"preset", s.preset},
      {"model_source", s.model_source},
      {"rope", rope_to_json(r)},
      {"model_encoding", position_encoding_json(s.model_encoding)},
      {"compare_b", rope_to_json(s.compare_b)},
      {"compare_b_preset", s.compare_b_preset},
      {"compare_view", s.compare_view},
      {"recent_configs", s.recent_configs},
      {"extrapolation_method", pe::to_string(s.extrapolation_method)},
      {"length", s.length},
      {"position", s.position},
      {"pair", s.pair},
      {"vector", s.vector},
      {"play_speed", s.play_speed},
      {"delta_axis", s.delta_axis},
      {"mistake", s.mistake},
      {"seed003_sign", s.seed003_sign},
      {"samples", s.samples},
      {"seed", s.seed},
      {"anchor", s.anchor},
      {"heads", s.heads},
      {"head", s.head},
      {"learned_max_len", s.learned_max_len},
      {"colormap", to_string(s.colormap)},
      {"pixel_mean", s.pixel_mean},
      {"ui_scale", s.ui_scale},
      {"dark_theme", s.dark_theme},
      {"show_panel", s.show_panel},
      {"grid", s.grid},
      {"grid_views", s.grid_views},
      {"line_width", s.line_width},
      {"show_formula", s.show_formula},
      {"walkthrough_q", s.walkthrough_q},
      {"walkthrough_theta", s.walkthrough_theta},
      {"walkthrough_position", s.walkthrough_position},
      {"walkthrough_position_b", s.walkthrough_position_b},
      {"walkthrough_step", s.walkthrough_step},
      {"tokens", s.tokens},
      {"tokens_b", s.tokens_b},
      {"p_rope", s.p_rope},
      {"theta_low", s.theta_low},
      {"theta_high", s.theta_high},
      // Multimodal views (issue 12)
      {"scheme", s.scheme},
      {"sections", s.sections},
      {"prompt", s.prompt},
      {"merge_size", s.merge_size},
      {"sample_fps", s.sample_fps},
      {"rope_index", s.rope_index},
      {"prompt_token", s.prompt_token},
      {"grid_rows", s.grid_rows},
      {"grid_cols", s.grid_cols},
      {"patch_row", s.patch_row},
      {"patch_col", s.patch_col},
      {"qk", s.qk},
      // Frequency usage (issue 26)
      {"weights", s.weights},
      {"weights_layer", s.weights_layer},
  };
  // Tokens and file names may hold any bytes (command line, directory names); invalid UTF-8
  // becomes U+FFFD instead of a json::type_error that would lose the whole session.
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

AppState session_from_json(const std::string& text, const AppState& base, std::vector<std::string>& warnings) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw SessionError("not valid JSON at " + position_of(text, e.byte > 0 ? e.byte - 1 : 0) + ": " +
                       std::string(e.what()).substr(std::string(e.what()).find(':') + 1));
  } catch (const json::exception& e) {
    // A number beyond double's range ("1e400") is an out_of_range error, not a parse_error.
    const std::string what = e.what();
    throw SessionError("not valid JSON: " + what.substr(what.find("] ") == std::string::npos ? 0 : what.find("] ") + 2));
  }
  if (!j.is_object()) throw SessionError("a session must be a JSON object, got " + std::string(j.type_name()));
  if (!j.contains("pe_viz_session")) throw SessionError("pe_viz_session: missing (not a pe-viz session file?)");
  const long long version = get_as<long long>(j["pe_viz_session"], "pe_viz_session");
  if (version < 1 || version > kSessionVersion)
    throw SessionError("pe_viz_session: version " + std::to_string(version) + " is not supported (this pe-viz reads 1 ... " +
                       std::to_string(kSessionVersion) + ")");

  AppState s = base;
  for (const auto& [key, v] : j.items()) {
    const char* k = key.c_str();
    if (key == "pe_viz_session") continue;
    else if (key == "view") s.view = get_as<std::string>(v, k);
    else if (key == "preset") s.preset = get_as<std::string>(v, k);
    else if (key == "model_source") s.model_source = get_as<std::string>(v, k);
    else if (key == "length") s.length = get_as<long long>(v, k);
    else if (key == "position") s.position = get_as<long long>(v, k);
    else if (key == "pair") s.pair = get_as<long long>(v, k);
    else if (key == "vector") s.vector = number_list(v, k);
    else if (key == "play_speed") s.play_speed = get_as<double>(v, k);
    else if (key == "delta_axis") s.delta_axis = get_as<std::string>(v, k);
    else if (key == "mistake") s.mistake = get_as<std::string>(v, k);
    else if (key == "seed003_sign") s.seed003_sign = get_as<bool>(v, k);
    else if (key == "samples") s.samples = get_as<long long>(v, k);
    else if (key == "seed") s.seed = get_as<std::uint64_t>(v, k);
    else if (key == "anchor") s.anchor = get_as<long long>(v, k);
    else if (key == "heads") s.heads = get_as<long long>(v, k);
    else if (key == "head") s.head = get_as<long long>(v, k);
    else if (key == "learned_max_len") s.learned_max_len = get_as<long long>(v, k);
    else if (key == "pixel_mean") s.pixel_mean = get_as<bool>(v, k);
    else if (key == "dark_theme") s.dark_theme = get_as<bool>(v, k);
    else if (key == "show_panel") s.show_panel = get_as<bool>(v, k);
    else if (key == "grid") s.grid = get_as<bool>(v, k);
    else if (key == "grid_views") {
      if (!v.is_array()) throw SessionError(std::string("grid_views: expected a list of view names, got ") + v.type_name());
      s.grid_views.clear();
      for (const auto& name : v) s.grid_views.push_back(get_as<std::string>(name, k));
    }
    else if (key == "line_width") s.line_width = float(get_as<double>(v, k));
    else if (key == "show_formula") s.show_formula = get_as<bool>(v, k);
    else if (key == "walkthrough_q") s.walkthrough_q = number_list(v, k);
    else if (key == "walkthrough_theta") s.walkthrough_theta = get_as<double>(v, k);
    else if (key == "walkthrough_position") s.walkthrough_position = get_as<long long>(v, k);
    else if (key == "walkthrough_position_b") s.walkthrough_position_b = get_as<long long>(v, k);
    else if (key == "walkthrough_step") s.walkthrough_step = get_as<long long>(v, k);
    else if (key == "tokens") s.tokens = get_as<std::string>(v, k);
    else if (key == "tokens_b") s.tokens_b = get_as<std::string>(v, k);
    else if (key == "p_rope") s.p_rope = get_as<double>(v, k);
    else if (key == "theta_low") s.theta_low = get_as<double>(v, k);
    else if (key == "theta_high") s.theta_high = get_as<double>(v, k);
    // Multimodal views (issue 12)
    else if (key == "scheme") s.scheme = get_as<std::string>(v, k);
    else if (key == "sections") {
      if (!v.is_array()) throw SessionError(std::string("sections: expected a list of pair counts, got ") + v.type_name());
      s.sections.clear();
      for (const auto& n : v) s.sections.push_back(get_as<long long>(n, k));
    }
    else if (key == "prompt") s.prompt = get_as<std::string>(v, k);
    else if (key == "merge_size") s.merge_size = get_as<long long>(v, k);
    else if (key == "sample_fps") s.sample_fps = get_as<double>(v, k);
    else if (key == "rope_index") s.rope_index = get_as<std::string>(v, k);
    else if (key == "prompt_token") s.prompt_token = get_as<long long>(v, k);
    else if (key == "grid_rows") s.grid_rows = get_as<long long>(v, k);
    else if (key == "grid_cols") s.grid_cols = get_as<long long>(v, k);
    else if (key == "patch_row") s.patch_row = get_as<long long>(v, k);
    else if (key == "patch_col") s.patch_col = get_as<long long>(v, k);
    else if (key == "qk") s.qk = get_as<std::string>(v, k);
    else if (key == "weights") s.weights = get_as<std::string>(v, k);
    else if (key == "weights_layer") s.weights_layer = get_as<long long>(v, k);
    else if (key == "ui_scale") s.ui_scale = float(get_as<double>(v, k));
    else if (key == "colormap") {
      const std::string c = get_as<std::string>(v, k);
      if (c == "rdbu") s.colormap = ColormapChoice::RdBu;
      else if (c == "viridis") s.colormap = ColormapChoice::Viridis;
      else if (c == "cividis") s.colormap = ColormapChoice::Cividis;
      else throw SessionError("colormap: '" + c + "' is not one of rdbu, viridis, cividis");
    } else if (key == "rope") {
      rope_from_json(v, "rope", s.rope, warnings);
    } else if (key == "model_encoding") {
      try {
        s.model_encoding = position_encoding_from_json(v, "model_encoding");
      } catch (const pe::InvalidArgument& e) {
        throw SessionError(e.what());
      }
    } else if (key == "compare_b") {
      rope_from_json(v, "compare_b", s.compare_b, warnings);
    } else if (key == "compare_b_preset") s.compare_b_preset = get_as<std::string>(v, k);
    else if (key == "compare_view") s.compare_view = get_as<std::string>(v, k);
    else if (key == "recent_configs") {
      if (!v.is_array()) throw SessionError(std::string("recent_configs: expected a list of paths, got ") + v.type_name());
      s.recent_configs.clear();
      for (const auto& path : v) s.recent_configs.push_back(get_as<std::string>(path, k));
    } else if (key == "extrapolation_method") {
      try {
        s.extrapolation_method = pe::rope_type_from_string(get_as<std::string>(v, k));
      } catch (const pe::InvalidArgument& e) {
        throw SessionError(std::string(k) + ": " + e.what());
      }
    } else {
      warnings.push_back("unknown key '" + key + "' ignored");
    }
  }
  // A hand-written session may name presets without spelling out their numbers.
  try {
    // Sessions written before model_source: a preset's name is its source; a config read
    // from a file is not known any more (the inspector then shows the configuration itself).
    if (!j.contains("model_source")) s.model_source = s.preset.empty() ? std::string() : "preset:" + s.preset;
    if (j.contains("preset") && !j.contains("rope") && !s.preset.empty()) {
      const std::string view = s.view;
      const std::vector<long long> sections = s.sections;  // apply_preset clears them
      apply_preset(s, s.preset);
      s.view = view;
      s.sections = sections;
      if (j.contains("length")) s.length = get_as<long long>(j["length"], "length");
    }
    if (j.contains("compare_b_preset") && !j.contains("compare_b") && !s.compare_b_preset.empty())
      s.compare_b = pe::load_preset(s.compare_b_preset);
  } catch (const pe::InvalidArgument& e) {
    throw SessionError(std::string("preset: ") + e.what());
  } catch (const pe::ConfigError& e) {
    // compare_b_preset naming a model that does not rotate (compare draws two RoPEs).
    throw SessionError(std::string("compare_b_preset: ") + e.what());
  }
  const std::string error = validate_state(s);
  if (!error.empty()) throw SessionError("invalid values: " + error);
  if (s.ui_scale < 1.0f || s.ui_scale > 3.0f) throw SessionError("ui_scale: must be 1 ... 3");
  return s;
}

void write_file_atomic(const std::filesystem::path& path, const std::string& contents) {
  render::write_file_atomic(path, contents.data(), contents.size());
}

void save_session(const std::filesystem::path& path, const AppState& state) {
  try {
    write_file_atomic(path, session_to_json(state));
  } catch (const std::runtime_error& e) {
    throw SessionError(e.what());
  }
}

AppState load_session(const std::filesystem::path& path, const AppState& base, std::vector<std::string>& warnings) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SessionError("cannot read " + path.string() + ": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return session_from_json(text.str(), base, warnings);
  } catch (const SessionError& e) {
    throw SessionError(path.string() + ": " + e.what());
  }
}

std::filesystem::path config_dir_location() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  if (xdg && *xdg) return std::filesystem::path(xdg) / "pe-viz";
  if (home && *home) return std::filesystem::path(home) / ".config" / "pe-viz";
  return {};
}

std::filesystem::path config_dir() {
  const std::filesystem::path dir = config_dir_location();
  if (dir.empty()) return dir;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  return ec ? std::filesystem::path() : dir;
}

std::filesystem::path autosave_path() {
  const auto dir = config_dir();
  return dir.empty() ? dir : dir / "last-session.json";
}

}  // namespace app
