#pragma once
// Internal to the models module: the table of model types whose positional encoding is not
// simply "read the RoPE keys", and how each decides its family. One entry per model_type;
// every number is the __init__ default of the class named in config_class.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "pe/models/position_encoding.hpp"

namespace pe::detail {

// A key the config class reads: its own attribute name first, then the aliases its
// attribute_map accepts (a config.json may use either), and the class default.
struct ClassKey {
  std::array<const char*, 3> names{};
  std::optional<long long> fallback;  // nullopt: the class has no default (the family does without)
  bool present() const { return names[0] != nullptr; }
};

// How the model type decides its family.
enum class FamilyRule {
  Fixed,                  // always `family` (GPT-2: learned, T5: bucketed bias, BLOOM: ALiBi)
  PositionEmbeddingType,  // BERT and its copies: position_embedding_type absolute | relative_key | relative_key_query
  DistilBert,             // sinusoidal_pos_embds: true → sinusoidal, else learned
  Deberta,                // relative_attention → deberta-relative; else position_biased_input → learned; else none
  Mpt,                    // transformers' MptModel adds ALiBi whatever attn_config says (no position table)
  FalconAlibiFlag,        // FalconConfig.rotary = not alibi
  Rotary,                 // RoPE, read by the RoPE reader under these key names (GPT-J, CodeGen)
};

// A family parameter with the key(s) it is read from: "relative_attention_num_buckets",
// "relative_attention_max_distance", "position_buckets", "max_relative_positions",
// "relative_attention", "position_biased_input", "sinusoidal_pos_embds", "alibi",
// "alibi_bias_max", "pad_token_id", "embedding_size", "image_size", "patch_size",
// "mem_len", "clamp_len". Booleans store 0 / 1.
struct FamilyParameter {
  const char* name = nullptr;
  ClassKey key;
  bool boolean = false;
};

struct FamilyEntry {
  const char* model_type;
  FamilyRule rule;
  PositionEncodingFamily family;                  // Fixed's family; the rule's default otherwise
  std::optional<PositionEncodingFamily> encoder;  // encoder–decoder models: the encoder stack's family
  const char* config_class;                       // where the keys and defaults come from
  const char* modeling;                           // the modeling code that applies the family
  ClassKey hidden, heads, layers, decoder_layers, positions, encoder_positions, head_dim;
  long long position_offset;  // fixed rows before position 0 (OPT / BART: 2); RoBERTa's come from pad_token_id
  bool offset_from_padding;   // RoBERTa and its copies: position_offset = padding_idx + 1
  bool class_token;           // vision towers: one more row than patches (ViT, CLIP)
  std::array<FamilyParameter, 4> parameters;
  const char* shared;         // what the layers share
};

// nullptr when the model type is not in the table (RoPE models are read by the RoPE reader).
const FamilyEntry* family_entry(const std::string& model_type);
// The whole table, in the order above (for messages and tests).
const std::vector<FamilyEntry>& family_table();

}  // namespace pe::detail
