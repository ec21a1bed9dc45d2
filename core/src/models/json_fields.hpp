#pragma once
// Internal to pe_core (not installed): typed, key-naming access to a JSON object, shared by
// the config.json loader (config.cpp) and the per-layer plan (layer_plan.cpp). Every read
// names the key on failure ("rope_scaling.factor: expected a number, got string") instead of
// letting a JSON library exception escape.
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pe/models/config.hpp"
#include "pe/base/errors.hpp"

namespace pe::detail {

using json = nlohmann::json;

// "string", "boolean", "array", "object", "number" — what the user wrote, for messages.
inline std::string kind(const json& j) { return j.type_name(); }

class Fields {
 public:
  Fields(const json& obj, std::string prefix) : obj_(&obj), prefix_(std::move(prefix)) {}

  std::string key(const std::string& k) const { return prefix_.empty() ? k : prefix_ + "." + k; }
  const std::string& prefix() const { return prefix_; }
  const json& object_json() const { return *obj_; }

  // null counts as absent, as in HF (`rope_scaling: null`, `head_dim: null`).
  const json* find(const char* k) const {
    auto it = obj_->find(k);
    if (it == obj_->end() || it->is_null()) return nullptr;
    return &*it;
  }
  bool has(const char* k) const { return find(k) != nullptr; }
  // Present in the file, even as null (a sparse export that writes "rope_theta": null).
  bool present(const char* k) const { return obj_->find(k) != obj_->end(); }

  std::optional<double> number(const char* k) const {
    const json* j = find(k);
    if (!j) return std::nullopt;
    return to_number(*j, key(k));
  }

  // True when the value is written as an integer literal (HF's validators want floats).
  bool is_integer_literal(const char* k) const {
    const json* j = find(k);
    return j && j->is_number_integer();
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
      if (!std::isfinite(d)) throw ConfigError(name, "number out of range (" + format_double(d) + ")");
      if (d != std::floor(d)) throw ConfigError(name, "expected an integer, got " + format_double(d));
      if (d < static_cast<double>(minimum) || d > static_cast<double>(maximum))
        throw ConfigError(name, "out of range (got " + format_double(d) + ", allowed " + std::to_string(minimum) +
                                    " ... " + std::to_string(maximum) + ")");
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

  std::optional<std::vector<std::string>> string_list(const char* k) const {
    const json* j = find(k);
    if (!j) return std::nullopt;
    if (!j->is_array()) throw ConfigError(key(k), "expected a list of strings, got " + kind(*j));
    std::vector<std::string> out;
    out.reserve(j->size());
    for (std::size_t i = 0; i < j->size(); ++i) {
      if (!(*j)[i].is_string())
        throw ConfigError(key(k) + "[" + std::to_string(i) + "]", "expected a string, got " + kind((*j)[i]));
      out.push_back((*j)[i].get<std::string>());
    }
    return out;
  }

  std::optional<Fields> object(const char* k) const {
    const json* j = find(k);
    if (!j) return std::nullopt;
    if (!j->is_object()) throw ConfigError(key(k), "expected an object or null, got " + kind(*j));
    return Fields(*j, key(k));
  }

  static double to_number(const json& j, const std::string& name) {
    if (!j.is_number()) throw ConfigError(name, "expected a number, got " + kind(j));
    const double d = j.get<double>();
    // nlohmann turns 1e400 into inf rather than failing; refuse it here.
    if (!std::isfinite(d)) throw ConfigError(name, "number out of range (" + format_double(d) + ")");
    return d;
  }

 private:
  const json* obj_;  // pointer, not reference: Fields is reassigned
  std::string prefix_;
};

// Parses config.json text, reporting a syntax error against the key it occurred in.
json parse_json_text(const std::string& json_text);

// Compact text of a JSON value for diagnostics (long lists shortened to "[48 numbers]").
std::string brief(const json& value);

}  // namespace pe::detail
