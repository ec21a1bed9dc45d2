#pragma once
// AppState's relative-position parameters as core's parameter structs (pe/relative), so the
// views, their CSVs and validate_state build them one way.
#include "pe/relative/cope.hpp"
#include "pe/relative/deberta.hpp"
#include "pe/relative/deberta_score.hpp"
#include "pe/relative/distance_comparison.hpp"
#include "pe/relative/fire.hpp"
#include "pe/relative/kerple.hpp"
#include "pe/relative/relative_keys.hpp"
#include "pe/relative/t5_bias.hpp"
#include "pe/relative/t5_buckets.hpp"
#include "state/app_state.hpp"

#include <memory>

namespace app {

pe::T5BucketParams t5_params(const AppState& state);
pe::DebertaPositionParams deberta_params(const AppState& state);
pe::KerpleParams kerple_params(const AppState& state);
pe::FireParams fire_params(const AppState& state);

// The comparison of score against distance over distances 0 … length − 1 (L_train =
// state.training_length; heads and head as ALiBi's; T5's buckets and head; KERPLE's r1, r2 for
// both variants; d and θ of the RoPE configuration).
pe::DistanceComparisonParams distance_params(const AppState& state, long long length, long long samples);

// The distance axis distance-bias shows: the length slider when it runs past L_train, else
// 4 × L_train (capped at 10^9) so the axis always runs past the training length.
long long distance_axis_length(const AppState& state);

// The T5 bias table the views and the attention patterns use: for now always core's
// illustrative table (num_buckets × heads, marked illustrative); a model's trained table (the
// weights module, issue 33) takes its place here when one is loaded. Cached per (buckets,
// max_distance, causal, heads): 4096 × 1024 entries are 32 MiB. Throws as core does.
std::shared_ptr<const pe::T5BiasTable> t5_bias_table(const AppState& state);

// The selected 1-based head, clamped to 1 … heads.
long long selected_head(const AppState& state);

// Throws pe::InvalidArgument naming the first relative-position parameter out of its range
// (session spelling: num_buckets, r2, cope_text …) with the range allowed.
void validate_relative(const AppState& state);

}  // namespace app
