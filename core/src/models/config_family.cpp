// Which positional encoding the model has (decide_family), and for a model that does not
// rotate, its family's parameters under its config class's own key names
// (read_family_parameters). RoPE models go on to the RoPE steps; describe_rope_encoding
// fills their PositionEncodingInfo from what those steps read.
//
// Reference: each model's configuration_<model>.py (keys, attribute_map, defaults) and
// modeling_<model>.py (what the keys do); the table is position_families.cpp.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "config_reading.hpp"
#include "pe/base/errors.hpp"
#include "pe/base/text.hpp"
#include "position_families.hpp"

namespace pe::detail {
namespace {

using F = PositionEncodingFamily;

constexpr long long kMaxWidth = std::numeric_limits<long long>::max() / 4;

// Keys that name a rotary embedding. "Strong" ones say the model rotates in a way a config
// class only writes when it does; "weak" ones (a base, a default rope block) are written by
// some classes whether or not they rotate (FalconConfig keeps rope_theta beside alibi).
constexpr const char* kStrongRotaryKeys[] = {"rotary_dim", "rotary_pct", "partial_rotary_factor", "qk_rope_head_dim",
                                             "rope_interleave"};
constexpr const char* kWeakRotaryKeys[] = {"rope_theta", "rotary_emb_base", "pe_viz_convention"};

struct Signals {
  std::string alibi;   // the key that turns ALiBi on ("alibi", "attn_config.alibi", "position_embedding_type")
  std::string strong;  // a key that says the model rotates
  std::string weak;    // a key some classes write either way
};

bool is_true(const json* v) { return v && v->is_boolean() && v->get<bool>(); }

// The rope block's type, when it is an object with one ("default" when none is named).
std::string rope_block_type(const json& block) {
  for (const char* k : {"rope_type", "type"})
    if (auto it = block.find(k); it != block.end() && it->is_string()) return ascii_lower(it->get<std::string>());
  return "default";
}

Signals signals_of(const Fields& block) {
  Signals s;
  if (is_true(block.find("alibi"))) s.alibi = block.key("alibi");
  const json* attn = block.find("attn_config");
  if (attn && attn->is_object()) {
    if (auto it = attn->find("alibi"); it != attn->end() && is_true(&*it)) s.alibi = block.key("attn_config") + ".alibi";
    if (auto it = attn->find("rope"); it != attn->end() && is_true(&*it)) s.strong = block.key("attn_config") + ".rope";
  }
  if (const json* t = block.find("position_embedding_type"); t && t->is_string()) {
    const std::string v = ascii_lower(t->get<std::string>());
    if (v == "alibi") s.alibi = block.key("position_embedding_type");
    if (v == "rotary") s.strong = block.key("position_embedding_type");
  }
  for (const char* k : kStrongRotaryKeys)
    if (s.strong.empty() && block.find(k)) s.strong = block.key(k);
  for (const char* k : {"rope_scaling", "rope_parameters"}) {
    const json* v = block.find(k);
    if (!v) continue;
    // A per-layer-type rope_parameters (a dict of dicts) or a scaled block says it rotates.
    const bool scaled = v->is_object() && rope_block_type(*v) != "default";
    if (scaled && s.strong.empty()) s.strong = block.key(k);
    else if (s.weak.empty()) s.weak = block.key(k);
  }
  for (const char* k : kWeakRotaryKeys)
    if (s.weak.empty() && block.find(k)) s.weak = block.key(k);
  return s;
}

std::string looked_for() {
  std::string keys;
  for (const char* k : kStrongRotaryKeys) keys += std::string(keys.empty() ? "" : ", ") + k;
  for (const char* k : kWeakRotaryKeys) keys += std::string(", ") + k;
  keys += ", rope_scaling, rope_parameters, position_embedding_type, alibi, attn_config.alibi";
  std::string types;
  for (const auto& e : family_table()) types += std::string(types.empty() ? "" : ", ") + e.model_type;
  for (const auto& t : known_model_types()) types += ", " + t;
  return "looked for " + keys + "; model types pe-viz knows: " + types;
}

// One ClassKey: the first of its names the file gives, else the class default.
struct ReadValue {
  long long value = 0;
  std::string key;  // the config key read, or "" for the class default
  bool given = false;
};

std::optional<ReadValue> read_key(ConfigReading& rd, const ClassKey& k, const char* param, long long lo, long long hi,
                                  bool boolean = false) {
  if (!k.present()) return std::nullopt;
  const FamilyEntry* entry = rd.family;
  for (const char* name : k.names) {
    if (!name) break;
    const std::string n(name);
    const std::size_t dot = n.find('.');
    // "attn_config.alibi": one level of nesting (MptAttentionConfig).
    std::optional<Fields> holder = dot == std::string::npos ? std::optional<Fields>(rd.block) : rd.block.object(n.substr(0, dot).c_str());
    if (!holder) continue;
    const std::string leaf = dot == std::string::npos ? n : n.substr(dot + 1);
    if (!holder->find(leaf.c_str())) continue;
    ReadValue v;
    v.given = true;
    v.key = holder->key(leaf);
    if (boolean) v.value = *holder->boolean(leaf.c_str()) ? 1 : 0;
    else v.value = *holder->integer(leaf.c_str(), lo, hi);
    rd.r.loaded.encoding.keys.emplace_back(param, v.key);
    return v;
  }
  if (!k.fallback) return std::nullopt;
  ReadValue v;
  v.value = *k.fallback;
  rd.r.loaded.encoding.keys.emplace_back(param, "(class default)");
  rd.default_note(rd.block.key(k.names[0]), boolean ? (v.value ? "true" : "false") : std::to_string(v.value),
                  entry ? entry->config_class : "the config class");
  return v;
}

const FamilyParameter* parameter(const FamilyEntry& e, const char* name) {
  for (const auto& p : e.parameters)
    if (p.name && std::string(p.name) == name) return &p;
  return nullptr;
}

std::optional<ReadValue> read_parameter(ConfigReading& rd, const char* name, long long lo, long long hi) {
  const FamilyParameter* p = rd.family ? parameter(*rd.family, name) : nullptr;
  if (!p) return std::nullopt;
  return read_key(rd, p->key, name, lo, hi, p->boolean);
}

F family_of_bert_like(ConfigReading& rd) {
  const auto t = rd.block.string("position_embedding_type");
  PositionEncodingInfo& e = rd.r.loaded.encoding;
  if (!t) {
    rd.default_note(rd.block.key("position_embedding_type"), "\"absolute\"", rd.family->config_class);
    return F::LearnedAbsolute;
  }
  e.decided_by = rd.block.key("position_embedding_type");
  if (*t == "absolute") return F::LearnedAbsolute;
  if (*t == "relative_key") return F::RelativeKey;
  if (*t == "relative_key_query") return F::RelativeKeyQuery;
  throw ConfigError(rd.block.key("position_embedding_type"),
                    "got \"" + *t + "\"; " + rd.family->model_type +
                        "'s self-attention (BertSelfAttention) knows \"absolute\", \"relative_key\" and "
                        "\"relative_key_query\"");
}

F family_by_rule(ConfigReading& rd, const Signals& s) {
  const FamilyEntry& entry = *rd.family;
  PositionEncodingInfo& e = rd.r.loaded.encoding;
  switch (entry.rule) {
    case FamilyRule::Fixed:
    case FamilyRule::Rotary: return entry.family;
    case FamilyRule::PositionEmbeddingType: return family_of_bert_like(rd);
    case FamilyRule::DistilBert: {
      const bool sinusoidal = read_parameter(rd, "sinusoidal_pos_embds", 0, 1)->value != 0;
      e.decided_by = rd.block.key("sinusoidal_pos_embds");
      return sinusoidal ? F::Sinusoidal : F::LearnedAbsolute;
    }
    case FamilyRule::Deberta: {
      const bool relative = read_parameter(rd, "relative_attention", 0, 1)->value != 0;
      const bool biased = read_parameter(rd, "position_biased_input", 0, 1)->value != 0;
      e.decided_by = rd.block.key(relative ? "relative_attention" : "position_biased_input");
      e.position_biased_input = biased;
      return relative ? F::DebertaRelative : biased ? F::LearnedAbsolute : F::None;
    }
    case FamilyRule::Mpt: {
      const auto alibi = read_parameter(rd, "alibi", 0, 1);
      if (alibi && !alibi->value)
        rd.n.warn(alibi->key.empty() ? rd.block.key("attn_config") + ".alibi" : alibi->key,
                  "false: MosaicML's own code would then add learned_pos_emb; transformers' MptModel adds ALiBi "
                  "regardless (build_mpt_alibi_tensor in every forward) and has no position table — pe-viz reads it "
                  "as transformers runs it");
      e.decided_by = "model_type";
      return F::Alibi;
    }
    case FamilyRule::FalconAlibiFlag: {
      const bool alibi = read_parameter(rd, "alibi", 0, 1)->value != 0;
      e.decided_by = rd.block.key("alibi");
      if (alibi && !s.weak.empty())
        rd.n.warn(s.weak, "is not used: alibi = true, and FalconConfig.rotary is `not alibi` (the class writes a "
                          "rope_theta either way)");
      return alibi ? F::Alibi : F::Rope;
    }
  }
  return entry.family;
}

}  // namespace

void decide_family(ConfigReading& rd) {
  PositionEncodingInfo& e = rd.r.loaded.encoding;
  e = PositionEncodingInfo{};
  e.model_type = rd.r.model_type;
  e.decided_by = "model_type";
  rd.family = family_entry(rd.r.model_type);
  const Signals s = signals_of(rd.block);
  if (!s.alibi.empty() && !s.strong.empty())
    throw ConfigError(s.alibi, "= true names ALiBi, and " + s.strong +
                                   " names a rotary embedding: a model adds a linear bias to its logits or rotates q "
                                   "and k, not both (FalconConfig: rotary = not alibi); remove one of them");
  if (rd.family) {
    e.config_class = rd.family->config_class;
    e.modeling = rd.family->modeling;
    e.encoder_family = rd.family->encoder;
    e.family = family_by_rule(rd, s);
    if (e.encoder_family && rd.family->encoder == rd.family->family) e.encoder_family = e.family;
  } else if (rd.defs) {
    e.family = F::Rope;
    e.config_class = rd.defs->config_class;
  } else if (!s.strong.empty() || !s.weak.empty()) {
    e.family = F::Rope;
    e.decided_by = !s.strong.empty() ? s.strong : s.weak;
  } else if (rd.r.model_type.empty() && s.alibi.empty()) {
    // No model_type: not a transformers config of any class (AutoConfig needs one) but pe-viz's
    // own hand-written form (head_dim, max_position_embeddings, rope_theta …), which is RoPE.
    e.family = F::Rope;
    e.decided_by = "";
    rd.n.info("model_type", "absent: read as a hand-written RoPE configuration (a model's config.json names its "
                            "model_type, which decides its positional encoding)");
  } else if (!s.alibi.empty()) {
    throw ConfigError(s.alibi, "= true names ALiBi, but model_type " +
                                   (rd.r.model_type.empty() ? std::string("(none)") : "\"" + rd.r.model_type + "\"") +
                                   " is not one whose slopes pe-viz knows (bloom, mpt, falcon: each computes them its "
                                   "own way)");
  } else {
    throw ConfigError(rd.block.key("model_type"),
                      (rd.r.model_type.empty() ? std::string("absent") : "\"" + rd.r.model_type + "\"") +
                          ": no positional encoding recognised (" + looked_for() + ")");
  }
  if (!e.rotates())
    rd.n.info(rd.block.key("model_type"), std::string("positions are ") + to_string(e.family) +
                                              (e.encoder_family && *e.encoder_family != e.family
                                                   ? std::string(" (decoder); the encoder's are ") + to_string(*e.encoder_family)
                                                   : std::string()) +
                                              ", not rotary: " + e.modeling);
}

// The RoPE reader's hidden_size / num_attention_heads, under the names the model's class
// uses (GPT-J and CodeGen: n_embd, n_head; Falcon: n_head).
std::optional<long long> class_width(const ConfigReading& rd, const char* canonical, long long lo, long long hi) {
  if (rd.family) {
    const ClassKey& k = std::string(canonical) == "hidden_size" ? rd.family->hidden : rd.family->heads;
    for (const char* name : k.names)
      if (name && rd.block.find(name)) return rd.block.integer(name, lo, hi);
  }
  return rd.block.integer(canonical, lo, hi);
}

namespace {

void read_widths(ConfigReading& rd) {
  const FamilyEntry& f = *rd.family;
  PositionEncodingInfo& e = rd.r.loaded.encoding;
  e.hidden_size = read_key(rd, f.hidden, "hidden_size", 1, kMaxWidth)->value;
  e.num_attention_heads = read_key(rd, f.heads, "num_attention_heads", 1, 1 << 20)->value;
  e.num_hidden_layers = read_key(rd, f.layers, "num_hidden_layers", 0, kMaxLayers)->value;
  if (f.decoder_layers.present()) {
    const auto d = read_key(rd, f.decoder_layers, "num_decoder_layers", 0, kMaxLayers);
    if (d) e.num_decoder_layers = d->value;
    else {
      e.num_decoder_layers = e.num_hidden_layers;  // T5Config: num_decoder_layers None → num_layers
      rd.default_note(rd.block.key("num_decoder_layers"), std::to_string(e.num_hidden_layers) + " (= num_layers)", f.config_class);
    }
  }
  if (const auto h = read_key(rd, f.head_dim, "head_dim", 1, kMaxDim)) {
    e.head_dim = h->value;
  } else {
    e.head_dim = e.hidden_size / e.num_attention_heads;
    if (e.hidden_size % e.num_attention_heads != 0)
      throw ConfigError(rd.block.key(f.hidden.names[0]),
                        std::to_string(e.hidden_size) + " is not a multiple of " + f.heads.names[0] + " = " +
                            std::to_string(e.num_attention_heads) + " (" + f.model_type +
                            "'s attention splits the width into equal heads)");
  }
  e.embedding_width = e.hidden_size;
  if (const auto w = read_parameter(rd, "embedding_size", 1, kMaxWidth)) e.embedding_width = w->value;
}

void read_absolute_table(ConfigReading& rd) {
  const FamilyEntry& f = *rd.family;
  PositionEncodingInfo& e = rd.r.loaded.encoding;
  if (const auto image = read_parameter(rd, "image_size", 1, 1 << 20)) {
    const long long patch = read_parameter(rd, "patch_size", 1, 1 << 20)->value;
    if (patch > image->value)
      throw ConfigError(rd.block.key("patch_size"), "got " + std::to_string(patch) + ", larger than image_size = " +
                                                         std::to_string(image->value));
    e.image_size = image->value;
    e.patch_size = patch;
    e.num_patches = (image->value / patch) * (image->value / patch);  // (image_size // patch_size) ** 2
    e.class_token = f.class_token;
    e.positions = e.table_rows = e.num_patches + (f.class_token ? 1 : 0);
    return;
  }
  const auto pos = read_key(rd, f.positions, "max_position_embeddings", 1, kMaxLength);
  if (!pos) return;
  e.max_position_embeddings = pos->value;
  e.position_offset = f.position_offset;
  if (f.offset_from_padding) {
    // create_position_ids_from_input_ids: cumsum(mask) + padding_idx, so the first token is row padding_idx + 1.
    e.position_offset = read_parameter(rd, "pad_token_id", 0, kMaxLength)->value + 1;
    e.table_rows = e.max_position_embeddings;
    e.positions = e.table_rows - e.position_offset;
    if (e.positions < 1)
      throw ConfigError(rd.block.key(f.positions.names[0]),
                        std::to_string(e.max_position_embeddings) + " rows leave no position after padding_idx + 1 = " +
                            std::to_string(e.position_offset) + " (positions start after the padding row)");
    rd.n.info(rd.block.key(f.positions.names[0]),
              std::to_string(e.table_rows) + " rows; positions start after padding_idx (pad_token_id) at row " +
                  std::to_string(e.position_offset) + ", so " + std::to_string(e.positions) + " positions");
  } else {
    e.positions = e.max_position_embeddings;
    e.table_rows = e.positions + e.position_offset;
    if (e.position_offset)
      rd.n.info(rd.block.key(f.positions.names[0]),
                std::to_string(e.positions) + " positions in a table of " + std::to_string(e.table_rows) +
                    " rows: position p is row p + " + std::to_string(e.position_offset) + " (" + f.modeling + ")");
  }
  if (const auto enc = read_key(rd, f.encoder_positions, "encoder_max_position_embeddings", 1, kMaxLength)) {
    e.encoder_max_position_embeddings = enc->value;
    e.encoder_positions = enc->value;
  } else if (e.encoder_family) {
    e.encoder_positions = e.positions;  // BART / Marian: both stacks use max_position_embeddings
  }
}

void read_t5(ConfigReading& rd) {
  PositionEncodingInfo& e = rd.r.loaded.encoding;
  const auto buckets = read_parameter(rd, "relative_attention_num_buckets", 1, 1 << 20);
  const auto distance = read_parameter(rd, "relative_attention_max_distance", 1, kMaxLength);
  e.relative_attention_num_buckets = buckets->value;
  e.relative_attention_max_distance = distance->value;
  e.bias_per_layer = rd.r.model_type == "umt5";
  // _relative_position_bucket: the encoder halves the buckets by direction, then max_exact =
  // half of those; the decoder (causal) has max_exact = num_buckets // 2. The log branch
  // divides by log(max_distance / max_exact): both must be positive.
  const long long enc_exact = buckets->value / 2 / 2, dec_exact = buckets->value / 2;
  const std::string bkey = buckets->key.empty() ? rd.block.key("relative_attention_num_buckets") : buckets->key;
  if (enc_exact < 1)
    throw ConfigError(bkey, "got " + std::to_string(buckets->value) +
                                "; the encoder's buckets (num_buckets // 2 per direction, half of them exact) need "
                                "num_buckets >= 4");
  if (distance->value <= dec_exact)
    throw ConfigError(distance->key.empty() ? rd.block.key("relative_attention_max_distance") : distance->key,
                      "got " + std::to_string(distance->value) + "; must exceed num_buckets // 2 = " +
                          std::to_string(dec_exact) + " (the decoder's exact buckets): the log branch divides by "
                          "log(max_distance / max_exact)");
  if (const json* n = rd.block.find("n_positions"))
    rd.n.info(rd.block.key("n_positions"), "= " + brief(*n) + ": not read by " + rd.family->config_class +
                                               " — T5's bucketed bias has no position limit");
  rd.n.info(bkey, std::to_string(buckets->value) + " buckets (bidirectional in the encoder: " +
                      std::to_string(buckets->value / 2) + " per direction, " + std::to_string(enc_exact) +
                      " exact; causal in the decoder: " + std::to_string(dec_exact) + " exact), the last bucket from " +
                      std::to_string(distance->value) + " on; a bias per (bucket, head), added to q·k with no 1/√d");
}

void read_deberta(ConfigReading& rd) {
  PositionEncodingInfo& e = rd.r.loaded.encoding;
  const auto max_rel = read_parameter(rd, "max_relative_positions", -1, kMaxLength);
  const auto buckets = read_parameter(rd, "position_buckets", -1, 1 << 20);
  e.position_buckets = buckets ? buckets->value : 0;
  const long long pos = e.max_position_embeddings;
  // DisentangledSelfAttention: max_relative_positions < 1 → max_position_embeddings.
  e.max_relative_positions = max_rel->value < 1 ? pos : max_rel->value;
  if (max_rel->value < 1)
    rd.n.info(max_rel->key.empty() ? rd.block.key("max_relative_positions") : max_rel->key,
              std::to_string(max_rel->value) + " (< 1): max_position_embeddings = " + std::to_string(pos) + " is used");
  if (e.position_buckets > 0) {
    const std::string bkey = buckets->key.empty() ? rd.block.key("position_buckets") : buckets->key;
    // make_log_bucket_position: mid = bucket_size // 2, divides by log((max_position − 1) / mid).
    if (e.position_buckets < 2)
      throw ConfigError(bkey, "got " + std::to_string(e.position_buckets) + "; log buckets need position_buckets >= 2 "
                                                                          "(mid = position_buckets // 2 must be >= 1), or "
                                                                          "<= 0 for none");
    if (e.max_relative_positions - 1 <= e.position_buckets / 2)
      throw ConfigError(bkey, "got " + std::to_string(e.position_buckets) + "; position_buckets // 2 must stay below "
                                                                          "max_relative_positions − 1 = " +
                                  std::to_string(e.max_relative_positions - 1) +
                                  " (make_log_bucket_position divides by log((max_position − 1) / mid))");
  }
  if (const json* t = rd.block.find("pos_att_type")) {
    // DebertaV2Config: a string "p2c|c2p" is lower-cased and split on "|".
    if (t->is_string()) {
      std::string s = ascii_lower(t->get<std::string>());
      std::size_t start = 0;
      while (start <= s.size()) {
        const std::size_t bar = s.find('|', start);
        std::string part = s.substr(start, bar == std::string::npos ? std::string::npos : bar - start);
        const auto b = part.find_first_not_of(' '), en = part.find_last_not_of(' ');
        if (b != std::string::npos) e.pos_att_type.push_back(part.substr(b, en - b + 1));
        if (bar == std::string::npos) break;
        start = bar + 1;
      }
    } else {
      e.pos_att_type = *rd.block.string_list("pos_att_type");
    }
    for (std::size_t i = 0; i < e.pos_att_type.size(); ++i)
      if (e.pos_att_type[i] != "c2p" && e.pos_att_type[i] != "p2c")
        throw ConfigError(rd.block.key("pos_att_type") + "[" + std::to_string(i) + "]",
                          "got \"" + e.pos_att_type[i] + "\"; DisentangledSelfAttention knows \"c2p\" and \"p2c\"");
    e.keys.emplace_back("pos_att_type", rd.block.key("pos_att_type"));
  }
  if (e.position_biased_input)
    rd.n.info(rd.block.key("position_biased_input"), "true: absolute positions (embeddings.position_embeddings, " +
                                                         std::to_string(pos) + " rows) are added to the input as well");
}

void read_alibi(ConfigReading& rd) {
  PositionEncodingInfo& e = rd.r.loaded.encoding;
  if (rd.family->rule == FamilyRule::Mpt) {
    const auto bias_max = read_parameter(rd, "alibi_bias_max", 1, 1 << 20);
    // MptModel.forward calls build_mpt_alibi_tensor(num_heads, max_seq_len) without it: 8.
    e.alibi_bias_max = 8.0;
    if (bias_max && bias_max->value != 8)
      rd.n.warn(bias_max->key.empty() ? rd.block.key("attn_config") + ".alibi_bias_max" : bias_max->key,
                "= " + std::to_string(bias_max->value) + " is not passed on by transformers' MptModel "
                "(build_mpt_alibi_tensor's default 8 is used); MosaicML's own code would use it");
    e.alibi_slopes = mpt_alibi_slopes(e.num_attention_heads, e.alibi_bias_max);
    e.alibi_rule = "build_mpt_alibi_tensor";
  } else {
    e.alibi_slopes = bloom_alibi_slopes(e.num_attention_heads);
    e.alibi_rule = "build_alibi_tensor";
  }
  e.positions = e.max_position_embeddings;
  const long long n = e.num_attention_heads;
  const bool power_of_two = (n & (n - 1)) == 0;
  rd.n.info(rd.block.key(rd.family->heads.names[0]),
            std::to_string(n) + " heads" + (power_of_two ? "" : " (not a power of two)") + ": slopes by " + e.alibi_rule +
                (rd.family->rule == FamilyRule::Mpt ? " (alibi_bias_max 8)" : "") + ": head 1 " +
                format_double(e.alibi_slopes.front()) + " … head " + std::to_string(n) + " " +
                format_double(e.alibi_slopes.back()));
}

void read_transformer_xl(ConfigReading& rd) {
  PositionEncodingInfo& e = rd.r.loaded.encoding;
  if (const auto m = read_parameter(rd, "mem_len", 0, kMaxLength)) e.mem_len = m->value;
  if (const auto c = read_parameter(rd, "clamp_len", -1, kMaxLength)) e.clamp_len = c->value;
}

void fill_rope_config_and_shape(ConfigReading& rd) {
  const PositionEncodingInfo& e = rd.r.loaded.encoding;
  // The RopeConfig of a model that does not rotate keeps only its identity and sizes; every
  // entry point that returns a RopeConfig refuses such a model (NotRotaryError).
  RopeConfig& c = rd.c();
  c.head_dim = e.head_dim;
  c.max_position_embeddings = e.positions > 0 ? e.positions : e.max_position_embeddings;
  ModelShape& shape = rd.r.shape;
  shape.model_type = rd.r.model_type;
  try {
    if (auto a = rd.top.string_list("architectures")) shape.architectures = *a;
  } catch (const ConfigError&) {
  }
  shape.hidden_size = e.hidden_size;
  shape.num_hidden_layers = e.num_hidden_layers;
  shape.num_attention_heads = e.num_attention_heads;
  shape.num_key_value_heads = e.num_attention_heads;
  shape.head_dim = e.head_dim;
  rd.r.schedule.num_layers = e.num_hidden_layers;
}

}  // namespace

void read_family_parameters(ConfigReading& rd) {
  PositionEncodingInfo& e = rd.r.loaded.encoding;
  read_widths(rd);
  e.shared = rd.family->shared;
  switch (e.family) {
    case F::LearnedAbsolute:
    case F::Sinusoidal:
    case F::RelativeKey:
    case F::RelativeKeyQuery:
    case F::DebertaRelative:
    case F::None: read_absolute_table(rd); break;
    case F::Alibi: {
      if (const auto p = read_key(rd, rd.family->positions, "max_position_embeddings", 1, kMaxLength))
        e.max_position_embeddings = p->value;
      break;
    }
    default: break;
  }
  switch (e.family) {
    case F::T5RelativeBias: read_t5(rd); break;
    case F::DebertaRelative: read_deberta(rd); break;
    case F::Alibi: read_alibi(rd); break;
    case F::TransformerXl: read_transformer_xl(rd); break;
    case F::RelativeKey:
    case F::RelativeKeyQuery:
      // BertSelfAttention.distance_embedding: 2 · max_position_embeddings − 1 rows of the head
      // width, indexed by query − key + max_position_embeddings − 1.
      e.table_rows = 2 * e.max_position_embeddings - 1;
      e.embedding_width = e.head_dim;
      e.position_offset = 0;
      e.shared = "every layer has its own distance_embedding (" + std::to_string(e.table_rows) + " × " +
                 std::to_string(e.head_dim) + "); no absolute table is added";
      break;
    case F::None:
      e.positions = e.table_rows = 0;
      e.shared = "nothing: relative_attention and position_biased_input are both false";
      break;
    default: break;
  }
  fill_rope_config_and_shape(rd);
}

void describe_rope_encoding(ConfigReading& rd) {
  PositionEncodingInfo& e = rd.r.loaded.encoding;
  const RopeConfig& c = rd.c();
  const ModelShape& s = rd.r.shape;
  e.family = F::Rope;
  e.hidden_size = s.hidden_size;
  e.num_attention_heads = s.num_attention_heads;
  e.head_dim = s.head_dim;
  e.num_hidden_layers = s.num_hidden_layers;
  e.max_position_embeddings = c.max_position_embeddings;
  e.positions = c.max_position_embeddings;
  if (e.modeling.empty()) e.modeling = std::string("rotary q/k, pairs ") + to_string(c.convention);
  e.shared = "no table: every layer rotates q and k by the same angles (layers may differ in base or window: see the "
             "layer plan)";
}

}  // namespace pe::detail
