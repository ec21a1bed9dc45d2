#pragma once
// A model's positional encoding family as JSON, with the keys of issue 33: "position_encoding"
// (rope, learned-absolute, sinusoidal, alibi, t5-relative-bias, deberta-relative,
// relative-key, relative-key-query, transformer-xl, none), "encoder_position_encoding" for
// encoder–decoder models, and the family's parameters under its config's key names
// (max_position_embeddings, position_offset, relative_attention_num_buckets,
// relative_attention_max_distance, position_buckets, max_relative_positions, alibi_slopes …).
// `dump --config`, `inspect --json` and session files ("model_encoding") write the same object.
#include <nlohmann/json.hpp>
#include <string>

#include "pe/models/position_encoding.hpp"

namespace app {

nlohmann::json position_encoding_json(const pe::PositionEncodingInfo& e);

// Reads position_encoding_json's object back (sessions). Throws pe::InvalidArgument naming
// "<prefix>.<key>" for a value of the wrong kind or an unknown family.
pe::PositionEncodingInfo position_encoding_from_json(const nlohmann::json& j, const std::string& prefix);

}  // namespace app
