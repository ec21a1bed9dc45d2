#pragma once
// Which positional encoding a model has, as transformers' modeling code decides it from
// config.json: RoPE is one family among ten, never the default. RopeConfig keeps describing
// what rotates; PositionEncodingInfo says which family the model is and carries every other
// family's parameters under the names its config class reads (n_positions, d_kv,
// max_source_positions, ...), with the class defaults for keys a config leaves out. The
// table behind it is one place: core/src/models/position_families.cpp.
#include "pe/models/module_guard.hpp"
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pe {

enum class PositionEncodingFamily {
  Rope,              // rotary q/k (Llama, GPT-NeoX, GPT-J, Falcon without alibi, ...)
  LearnedAbsolute,   // a trained position table added to the token embeddings (GPT-2, BERT, OPT, ViT)
  Sinusoidal,        // a fixed sin/cos table added to the embeddings (Marian, DistilBERT's option, Whisper's encoder)
  Alibi,             // a per-head linear bias −m_h·(i − j) on the logits (BLOOM, MPT, Falcon with alibi)
  T5RelativeBias,    // a learned bias per (distance bucket, head) on the logits (T5 and its family)
  DebertaRelative,   // DeBERTa's disentangled content/position attention over relative positions
  RelativeKey,       // Shaw et al.: a learned embedding per clipped distance dotted with the query
  RelativeKeyQuery,  // Huang et al.: the same embedding dotted with the query and with the key
  TransformerXl,     // Dai et al.: sinusoidal relative R with the u, v biases (Transformer-XL, XLNet)
  None,              // no positional encoding (a model configured without one)
};

// The stable kebab-case name: "rope", "learned-absolute", "sinusoidal", "alibi",
// "t5-relative-bias", "deberta-relative", "relative-key", "relative-key-query",
// "transformer-xl", "none". These are the JSON values of "position_encoding".
const char* to_string(PositionEncodingFamily family);
std::optional<PositionEncodingFamily> position_encoding_family_from_string(std::string_view name);
const std::vector<PositionEncodingFamily>& all_position_encoding_families();

// Everything a model's config says about its positions beyond RoPE. Zero / empty means "not
// part of this family" (or not given). For encoder–decoder models `family` is the decoder's
// (the stack that generates) and `encoder_family` the encoder's.
struct PositionEncodingInfo {
  PositionEncodingFamily family = PositionEncodingFamily::Rope;
  std::optional<PositionEncodingFamily> encoder_family;
  std::string model_type;     // as read (the language model's block for wrappers); "" none given
  std::string config_class;   // where the keys and their defaults come from, e.g. "GPT2Config (configuration_gpt2.py)"
  std::string decided_by;     // what fixed the family: "model_type", "position_embedding_type", "alibi", ...
  std::string modeling;       // the modeling code that applies it, e.g. "GPT2Model.wpe (modeling_gpt2.py)"

  long long hidden_size = 0;
  long long num_attention_heads = 0;
  long long head_dim = 0;             // q/k width per head (d_kv for T5; hidden_size / heads elsewhere)
  long long num_hidden_layers = 0;    // the encoder's for encoder–decoder models (transformers' num_hidden_layers)
  long long num_decoder_layers = 0;   // encoder–decoder models only
  // Positions the decoder (or the only stack) is configured for: rows of a learned table
  // without its offset rows, or the length a sinusoidal / ALiBi model was built for. 0: the
  // family has no such limit (T5, BLOOM).
  // The config's max_position_embeddings (under its class's name: n_positions, max_seq_len,
  // max_target_positions, ...), as written. RoBERTa's 514 counts the offset rows, OPT's 2048
  // does not: `table_rows` and `positions` say what each means.
  long long max_position_embeddings = 0;
  long long encoder_max_position_embeddings = 0;  // encoder–decoder models (Whisper: max_source_positions)
  // Table rows before position 0: OPT / BART / mBART 2 (their LearnedPositionalEmbedding
  // offset); RoBERTa-style models padding_idx + 1 (create_position_ids_from_input_ids).
  long long position_offset = 0;
  long long table_rows = 0;  // rows of the absolute table as the weights hold it (OPT-125m 2050, RoBERTa 514)
  long long positions = 0;   // positions it can encode: table_rows − position_offset (OPT 2048, RoBERTa 512)
  long long encoder_positions = 0;  // the encoder's, for encoder–decoder models (Whisper 1500)
  long long embedding_width = 0;  // width of an absolute table (hidden_size; ELECTRA: embedding_size)

  // T5 family: bucketed relative bias (T5Attention._relative_position_bucket).
  long long relative_attention_num_buckets = 0;
  long long relative_attention_max_distance = 0;
  bool bias_per_layer = false;  // UMT5: every layer has its own table; T5: block 0's table serves its stack

  // DeBERTa: position_buckets (<= 0: no log buckets), max_relative_positions as the model
  // uses it (the config's −1 already replaced by max_position_embeddings).
  long long position_buckets = 0;
  long long max_relative_positions = 0;
  bool position_biased_input = false;  // absolute positions added to the input as well
  std::vector<std::string> pos_att_type;  // "c2p", "p2c" (content-to-position and back)

  // ALiBi: one slope per head exactly as the model computes them (BLOOM / Falcon:
  // build_alibi_tensor; MPT: build_mpt_alibi_tensor with alibi_bias_max).
  std::vector<double> alibi_slopes;
  std::string alibi_rule;         // "build_alibi_tensor" or "build_mpt_alibi_tensor"
  double alibi_bias_max = 0.0;    // MPT's (8)

  // Vision towers: the learned table has one row per patch (and the class token's).
  long long image_size = 0, patch_size = 0, num_patches = 0;
  bool class_token = false;

  // Transformer-XL / XLNet.
  long long mem_len = 0, clamp_len = 0;

  // Which config key each parameter was read from ("max_position_embeddings" → "n_positions"),
  // in the order read; a key a file left out is named "(class default)".
  std::vector<std::pair<std::string, std::string>> keys;
  std::string shared;               // what the layers share, in words ("one table per stack for all layers")
  std::vector<std::string> notes;   // the modeling code's details a reader needs (layout, offsets, masks)

  bool rotates() const { return family == PositionEncodingFamily::Rope; }
  bool is_encoder_decoder() const { return encoder_family.has_value(); }
};

// BLOOM's and Falcon's slopes (modeling_bloom.py build_alibi_tensor): base 2^(−8/p) for the
// closest power of two p ≤ heads, slopes base^1 … base^p, then for the remaining heads the
// odd powers 1, 3, 5, … of 2^(−4/p); computed in float32 as the model does. heads ≥ 1.
std::vector<double> bloom_alibi_slopes(long long heads);
// MPT's (modeling_mpt.py build_mpt_alibi_tensor): with P the power of two ≥ heads, slopes
// 1 / 2^(k · alibi_bias_max / P) for k = 1 … P, reordered odd-indexed first then even when
// heads < P and cut to `heads`; float32.
std::vector<double> mpt_alibi_slopes(long long heads, double alibi_bias_max = 8.0);

// A one-line summary: "learned-absolute: 1024 positions × 768 (n_positions, n_embd)".
std::string describe_position_encoding(const PositionEncodingInfo& info);

// What each layer holds of the positions, stack by stack (the layers view's strips).
enum class LayerPositionRole {
  OwnsTable,       // this layer has its own position parameters (T5's block 0, UMT5's every block, BERT relative keys)
  SharesTable,     // uses a table held elsewhere in its stack (T5's later blocks, DeBERTa's rel_embeddings, Transformer-XL's R)
  SameBias,        // adds the same fixed bias as every layer, nothing trained (ALiBi)
  NoPositions,     // sees positions only through what was added to the input
};
const char* to_string(LayerPositionRole role);
struct StackPositions {
  std::string stack;                     // "decoder", "encoder", or "" for a single stack
  PositionEncodingFamily family;
  std::string input;                     // what is added before the first layer: "learned table", "fixed sinusoidal table", ""
  std::vector<LayerPositionRole> layers;
};
// The encoder first for encoder–decoder models. Empty for RoPE (its layer plan says more).
std::vector<StackPositions> position_layer_roles(const PositionEncodingInfo& e);

}  // namespace pe
