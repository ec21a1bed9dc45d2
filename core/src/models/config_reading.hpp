#pragma once
// Internal to the models module: config.json read as a sequence of named steps. resolve_config
// (config_reader.cpp) takes them top to bottom; each reads its keys from the language model's
// block, fills its part of the Resolution and notes what it saw. A new key, shape or rope
// type lands in the one step that reads its part.
#include <optional>
#include <string>
#include <vector>

#include "config_resolve.hpp"
#include "pe/models/model_defaults.hpp"

namespace pe::detail {

struct FamilyEntry;  // position_families.hpp

// Integral values in plain digits ("500000", not to_chars' shorter "5e+05"), others shortest round-trip.
std::string fmt(double v);

// Collects diagnostics in the order they are noticed.
class Notes {
 public:
  explicit Notes(std::vector<Diagnostic>& out) : out_(&out) {}
  void info(std::string key, std::string message) { add(Severity::Info, std::move(key), std::move(message)); }
  void warn(std::string key, std::string message) { add(Severity::Warning, std::move(key), std::move(message)); }
  void error(std::string key, std::string message) { add(Severity::Error, std::move(key), std::move(message)); }

 private:
  void add(Severity s, std::string key, std::string message) { out_->push_back({s, std::move(key), std::move(message)}); }
  std::vector<Diagnostic>* out_;
};

// The RoPE dicts a file gives: rope_parameters (transformers v5: one dict, or one per layer
// type) and rope_scaling (v4), and the one that configures the main (full-attention) layers.
struct RopeDicts {
  std::optional<Fields> params;   // rope_parameters
  std::optional<Fields> scaling;  // rope_scaling
  bool per_type = false;          // rope_parameters keyed by layer type
  std::optional<Fields> main;     // the main configuration's dict; none: plain RoPE
  std::optional<Fields> sliding;  // per_type: the sliding layers' dict
  std::optional<json> class_default;  // a config class's default rope_scaling (keeps `main` alive)
  std::optional<json> merged;         // Gemma 3: full_attention updated by rope_scaling (keeps `main` alive)
};

// What read_scaling reports back beyond the RopeScaling fields.
struct ScalingRead {
  bool factor_given = false;
  bool original_given = false;
  std::optional<double> attn_factor;  // vLLM's key
};

// One config.json object being read. Not copyable: `n` points into `r`, `block` into `root`.
struct ConfigReading {
  ConfigReading(const json& root, const std::string& name);
  ConfigReading(const ConfigReading&) = delete;
  ConfigReading& operator=(const ConfigReading&) = delete;

  Resolution r;
  Notes n;
  const Fields top;
  Fields block;  // the language model's: top, or text_config / llm_config / language_config
  const ModelDefaults* defs = nullptr;  // the model_type's config-class defaults, if known
  const FamilyEntry* family = nullptr;  // the model_type's entry in the family table, if it has one
  RopeDicts dicts;
  ScalingRead read;
  long long qk_nope = 0;  // MLA: q/k dims beside the rotary ones
  std::string partial_rotary_key;  // the key partial_rotary_factor came from ("" for none)
  long long local_head_dim = 0;    // Gemma 4: head_dim of the sliding layers when global_head_dim is the main one

  RopeConfig& c() { return r.loaded.config; }
  // "absent; VALUE from WHY" for a key a default filled in.
  void default_note(const std::string& key, const std::string& value, const std::string& why);
};

// The steps, in the order resolve_config takes them.
void read_identity(ConfigReading& rd);        // pe_viz_name, pe_viz_title, pe_viz_source
void read_text_block(ConfigReading& rd);      // text_config, llm_config, language_config
void read_model_type(ConfigReading& rd);      // model_type and its config-class defaults
void decide_family(ConfigReading& rd);        // which positional encoding (never RoPE by default); ALiBi + rotary refused
void read_family_parameters(ConfigReading& rd);  // a model that does not rotate: its family's keys, under its class's names
void choose_rope_dicts(ConfigReading& rd);    // rope_parameters / rope_scaling, flat or per layer type
void read_theta(ConfigReading& rd);           // rope_theta and where it came from
void read_head_dim(ConfigReading& rd);        // head_dim, hidden_size / heads, MLA's qk_rope_head_dim
void read_partial_rotary(ConfigReading& rd);  // partial_rotary_factor, rotary_pct, rotary_dim
void read_max_positions(ConfigReading& rd);   // max_position_embeddings, n_positions
void read_convention(ConfigReading& rd);      // the pair convention: class, rope_interleave, pe_viz_convention
void read_scaling_block(ConfigReading& rd);   // the main dict's rope type and parameters, checked
void check_top_level(ConfigReading& rd);      // misspelt top-level keys; the layer keys' uses
void read_layer_schedule(ConfigReading& rd);  // layers, windows, NoPE layers (the layer plan's input)
void read_per_type_rope(ConfigReading& rd);   // each layer type's own RoPE
void read_query_scaling(ConfigReading& rd);   // Llama 4's NoPE-layer query temperature
void read_shape(ConfigReading& rd);           // heads, kv heads, widths (ModelShape)
void describe_rope_encoding(ConfigReading& rd);  // a RoPE model's PositionEncodingInfo from what the steps read
void check_computable(ConfigReading& rd);     // validate(): what pe-viz can compute

// hidden_size / num_attention_heads under the model class's own names where its attribute_map
// has them (GPT-J, CodeGen: n_embd, n_head), else the common name.
std::optional<long long> class_width(const ConfigReading& rd, const char* canonical, long long lo, long long hi);

// One rope_scaling / rope_parameters dict into c.scaling. `c` carries max_position_embeddings
// and head_dim already; the dict's own rope_theta / partial_rotary_factor are read by the caller.
ScalingRead read_scaling(const Fields& f, RopeConfig& c, Notes& n);

// rope_parameters keyed by layer type (transformers v5, Gemma 3 / gpt-oss exports): every key
// a layer type, every value a block or null. The reader and dump --emit-config both ask.
bool is_per_layer_type(const json& params);

// Keys of the language model's top level: misspellings of positional keys.
void check_top_level_keys(const Fields& f, Notes& n);
// Positional keys the inspector reports when found at the top level, with their use.
struct TopKey {
  const char* key;
  const char* use;
};
const std::vector<TopKey>& top_level_key_uses();

}  // namespace pe::detail
