#pragma once
// One-line descriptions of a configuration's scaling and of a layer's positional setup,
// shared by `pe-viz inspect` and the inspector and layers views (the same words in both).
#include "pe/models/module_guard.hpp"
#include <string>
#include <vector>

#include "pe/models/config.hpp"
#include "pe/models/layer_plan.hpp"

namespace pe {

// Integral values in plain digits ("500000", not "5e+05"), others shortest round-trip.
std::string plain_number(double v);
// "yarn factor 4, L_orig 32768, beta_fast 32, beta_slow 1", "llama3 factor 8, …", "default".
std::string describe_scaling(const RopeConfig& c);
// "sliding_attention (window 1024), RoPE θ 10000, default, 128 of 128 q/k dims rotate" or
// "full_attention, no positional encoding (NoPE)".
std::string describe_layer(const LayerRow& r);

// A model's positional encoding as (key, value) text rows, in reading order, under the JSON
// keys of `dump --config` / `inspect --json` ("position_encoding", "max_position_embeddings",
// "relative_attention_num_buckets", ...), only those its family has: the inspector and layers
// views, `inspect` and the inspector's CSV all print these. Long lists (alibi_slopes) are
// shortened to their first and last values.
struct EncodingField {
  std::string key;
  std::string value;
};
std::vector<EncodingField> position_encoding_fields(const PositionEncodingInfo& e);

}  // namespace pe
