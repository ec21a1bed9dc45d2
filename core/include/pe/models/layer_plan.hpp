#pragma once
// Models mix layers: sliding-window layers with their own base (Gemma 2/3), layers with no
// positional encoding at all (Llama 4's every fourth layer, Command R7B's global layers),
// per-layer-type rope_parameters (transformers v5), MLA heads where only qk_rope_head_dim of
// the q/k dims rotate (DeepSeek-V2/V3). A LayerPlan has one row per layer saying what that
// layer does, with a RopeConfig the GUI can make current.
#include "pe/models/module_guard.hpp"
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "pe/models/diagnostics.hpp"
#include "pe/scaling/scaling.hpp"

namespace pe {

// What config.json (with the model class's defaults) says about the layers.
struct LayerSchedule {
  long long num_layers = 0;                 // 0: not given (a single representative row)
  std::vector<std::string> layer_types;     // per layer ("full_attention", "sliding_attention", "chunked_attention")
  std::vector<bool> rotary;                 // per layer; empty: every layer rotates
  long long sliding_window = 0;             // window of "sliding_attention" layers (0: none given)
  long long attention_chunk_size = 0;       // window of "chunked_attention" layers (Llama 4)
  std::map<std::string, RopeConfig> per_type;  // a layer type's own RoPE (else the main config)
  long long qk_nope_head_dim = 0;           // MLA: q/k dims beside the rotary ones that never rotate
  std::vector<Diagnostic> notes;            // where the schedule came from (keys, defaults)
};

struct LayerRow {
  long long index = 0;
  std::string attention = "full_attention";
  bool rotary = true;          // false: NoPE layer (no positional encoding)
  long long window = 0;        // tokens a query sees (0: the whole context)
  double theta = 0.0;          // 0 for NoPE layers
  RopeType scaling = RopeType::Default;
  long long rotary_dims = 0;   // dims that rotate
  long long qk_dims = 0;       // q/k dims per head (rotary + unrotated: partial rotary, MLA nope part)
  std::size_t config_index = 0;  // this layer's RoPE: LayerPlan::config_of(row) (shared by alike layers)
};

// Consecutive or interleaved layers that behave the same, for the summary ("layers 0-4, 6-10 …: …").
struct LayerGroup {
  std::vector<long long> layers;
  LayerRow row;  // the first layer's row
};

struct LayerPlan {
  std::vector<LayerRow> rows;
  std::vector<RopeConfig> configs;  // the distinct RoPE configs rows refer to (main first)
  std::vector<Diagnostic> notes;
  std::vector<LayerGroup> groups() const;  // rows grouped by identical behaviour, first-seen order
  // The RopeConfig a GUI row click makes current. Precondition: row from this plan.
  const RopeConfig& config_of(const LayerRow& row) const { return configs.at(row.config_index); }
};

// Layers beyond this are refused (no model has more than a few hundred).
inline constexpr long long kMaxLayers = 65536;

// From a schedule and the main (full-attention) RoPE.
LayerPlan layer_plan(const RopeConfig& main, const LayerSchedule& schedule);
// From config.json text (resolved with the model's defaults as the loader does). Throws ConfigError.
LayerPlan layer_plan(const std::string& config_json_text);
// For sources with no layer information (a bare RopeConfig, a GGUF header read elsewhere):
// one row standing for every layer.
LayerPlan layer_plan(const LoadedConfig& loaded);

// "0-4, 6-10, 12" for a sorted list of layer indices.
std::string format_layer_ranges(const std::vector<long long>& layers);

}  // namespace pe
