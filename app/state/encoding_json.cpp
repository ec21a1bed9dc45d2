#include "state/encoding_json.hpp"

#include <array>

#include "pe/base/errors.hpp"

namespace app {
namespace {

using json = nlohmann::json;
using F = pe::PositionEncodingFamily;
using Info = pe::PositionEncodingInfo;

struct IntField {
  const char* key;
  long long Info::*member;
};

// Every integer the descriptor carries, under its JSON key.
constexpr std::array<IntField, 19> kInts = {{
    {"hidden_size", &Info::hidden_size},
    {"num_attention_heads", &Info::num_attention_heads},
    {"head_dim", &Info::head_dim},
    {"num_hidden_layers", &Info::num_hidden_layers},
    {"num_decoder_layers", &Info::num_decoder_layers},
    {"max_position_embeddings", &Info::max_position_embeddings},
    {"encoder_max_position_embeddings", &Info::encoder_max_position_embeddings},
    {"position_offset", &Info::position_offset},
    {"table_rows", &Info::table_rows},
    {"positions", &Info::positions},
    {"encoder_positions", &Info::encoder_positions},
    {"embedding_width", &Info::embedding_width},
    {"relative_attention_num_buckets", &Info::relative_attention_num_buckets},
    {"relative_attention_max_distance", &Info::relative_attention_max_distance},
    {"position_buckets", &Info::position_buckets},
    {"max_relative_positions", &Info::max_relative_positions},
    {"image_size", &Info::image_size},
    {"patch_size", &Info::patch_size},
    {"num_patches", &Info::num_patches},
}};

// The keys a family always writes (0 included: an offset of 0 is a fact); the others only
// when set.
bool always(const Info& e, const std::string& key) {
  const bool table = e.family == F::LearnedAbsolute || e.family == F::Sinusoidal ||
                     (e.family == F::DebertaRelative && e.position_biased_input);
  if (key == "hidden_size" || key == "num_attention_heads" || key == "head_dim" || key == "num_hidden_layers") return true;
  if (table && (key == "max_position_embeddings" || key == "position_offset" || key == "table_rows" ||
                key == "positions" || key == "embedding_width"))
    return true;
  if (e.family == F::T5RelativeBias && (key == "relative_attention_num_buckets" || key == "relative_attention_max_distance"))
    return true;
  if (e.family == F::DebertaRelative && (key == "position_buckets" || key == "max_relative_positions")) return true;
  if ((e.family == F::RelativeKey || e.family == F::RelativeKeyQuery) && key == "max_position_embeddings") return true;
  return false;
}

long long integer(const json& v, const std::string& key) {
  if (!v.is_number_integer()) throw pe::InvalidArgument(key, v.dump(), "an integer");
  return v.get<long long>();
}

bool boolean(const json& v, const std::string& key) {
  if (!v.is_boolean()) throw pe::InvalidArgument(key, v.dump(), "true or false");
  return v.get<bool>();
}

std::string text(const json& v, const std::string& key) {
  if (!v.is_string()) throw pe::InvalidArgument(key, v.dump(), "a string");
  return v.get<std::string>();
}

F family(const json& v, const std::string& key) {
  const auto f = pe::position_encoding_family_from_string(text(v, key));
  if (!f) {
    std::string names;
    for (F n : pe::all_position_encoding_families()) names += std::string(names.empty() ? "" : ", ") + pe::to_string(n);
    throw pe::InvalidArgument(key, v.dump(), "one of " + names);
  }
  return *f;
}

}  // namespace

json position_encoding_json(const Info& e) {
  json j;
  j["position_encoding"] = pe::to_string(e.family);
  if (e.encoder_family) j["encoder_position_encoding"] = pe::to_string(*e.encoder_family);
  j["model_type"] = e.model_type;
  for (const IntField& f : kInts)
    if (e.*f.member != 0 || always(e, f.key)) j[f.key] = e.*f.member;
  switch (e.family) {
    case F::T5RelativeBias: j["bias_per_layer"] = e.bias_per_layer; break;
    case F::DebertaRelative:
      j["position_biased_input"] = e.position_biased_input;
      j["pos_att_type"] = e.pos_att_type;
      break;
    case F::Alibi:
      // 17 significant digits: the float32 slopes round-trip exactly.
      j["alibi_slopes"] = e.alibi_slopes;
      j["alibi_rule"] = e.alibi_rule;
      if (e.alibi_bias_max > 0) j["alibi_bias_max"] = e.alibi_bias_max;
      break;
    case F::TransformerXl:
      j["mem_len"] = e.mem_len;
      j["clamp_len"] = e.clamp_len;
      break;
    default: break;
  }
  if (e.num_patches) j["class_token"] = e.class_token;
  json keys = json::object();
  for (const auto& [param, key] : e.keys) keys[param] = key;
  j["keys"] = std::move(keys);  // which config key each value came from ("(class default)" when absent)
  j["config_class"] = e.config_class;
  j["modeling"] = e.modeling;
  j["decided_by"] = e.decided_by;
  j["shared"] = e.shared;
  return j;
}

Info position_encoding_from_json(const json& j, const std::string& prefix) {
  if (!j.is_object()) throw pe::InvalidArgument(prefix, j.dump(), "an object");
  Info e;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& k = it.key();
    const std::string name = prefix + "." + k;
    const json& v = it.value();
    bool known = false;
    for (const IntField& f : kInts)
      if (k == f.key) e.*f.member = integer(v, name), known = true;
    if (known) continue;
    if (k == "position_encoding") e.family = family(v, name);
    else if (k == "encoder_position_encoding") e.encoder_family = family(v, name);
    else if (k == "model_type") e.model_type = text(v, name);
    else if (k == "config_class") e.config_class = text(v, name);
    else if (k == "modeling") e.modeling = text(v, name);
    else if (k == "decided_by") e.decided_by = text(v, name);
    else if (k == "shared") e.shared = text(v, name);
    else if (k == "alibi_rule") e.alibi_rule = text(v, name);
    else if (k == "bias_per_layer") e.bias_per_layer = boolean(v, name);
    else if (k == "position_biased_input") e.position_biased_input = boolean(v, name);
    else if (k == "class_token") e.class_token = boolean(v, name);
    else if (k == "mem_len") e.mem_len = integer(v, name);
    else if (k == "clamp_len") e.clamp_len = integer(v, name);
    else if (k == "alibi_bias_max") {
      if (!v.is_number()) throw pe::InvalidArgument(name, v.dump(), "a number");
      e.alibi_bias_max = v.get<double>();
    } else if (k == "alibi_slopes") {
      if (!v.is_array()) throw pe::InvalidArgument(name, v.dump(), "a list of slopes, one per head");
      for (const json& s : v) {
        if (!s.is_number() || !(s.get<double>() > 0.0)) throw pe::InvalidArgument(name, s.dump(), "positive numbers");
        e.alibi_slopes.push_back(s.get<double>());
      }
    } else if (k == "pos_att_type") {
      if (!v.is_array()) throw pe::InvalidArgument(name, v.dump(), "a list of \"c2p\" / \"p2c\"");
      for (const json& s : v) e.pos_att_type.push_back(text(s, name));
    } else if (k == "keys") {
      if (!v.is_object()) throw pe::InvalidArgument(name, v.dump(), "an object");
      for (auto kv = v.begin(); kv != v.end(); ++kv) e.keys.emplace_back(kv.key(), text(kv.value(), name + "." + kv.key()));
    }
    // Other keys (a later version's) are left out, as session files do elsewhere.
  }
  return e;
}

}  // namespace app
