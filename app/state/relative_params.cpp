#include "state/relative_params.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <string>

#include "pe/base/errors.hpp"
#include "pe/relative/sandwich.hpp"
#include "pe/relative/xpos.hpp"

namespace app {

pe::T5BucketParams t5_params(const AppState& s) { return {s.num_buckets, s.max_distance, s.causal}; }

pe::DebertaPositionParams deberta_params(const AppState& s) {
  return {s.position_buckets, s.max_relative_positions, s.max_position_embeddings};
}

pe::KerpleParams kerple_params(const AppState& s) { return {s.r1, s.r2}; }

pe::FireParams fire_params(const AppState& s) { return {s.fire_c, s.fire_threshold}; }

std::shared_ptr<const pe::T5BiasTable> t5_bias_table(const AppState& s) {
  // Attention computes on a worker with parameters made on the GUI thread; exports and tests
  // come from other threads: one lock around the one cached table.
  static std::mutex mutex;
  static std::shared_ptr<const pe::T5BiasTable> cached;
  static std::string key;
  const std::string k = std::to_string(s.num_buckets) + "|" + std::to_string(s.max_distance) + "|" + std::to_string(s.causal) + "|" +
                        std::to_string(s.heads);
  const std::lock_guard<std::mutex> lock(mutex);
  if (!cached || k != key) {
    cached = std::make_shared<const pe::T5BiasTable>(pe::t5_illustrative_bias_table(t5_params(s), s.heads));
    key = k;
  }
  return cached;
}

long long selected_head(const AppState& s) { return std::clamp<long long>(s.head, 1, std::max<long long>(s.heads, 1)); }

pe::DistanceComparisonParams distance_params(const AppState& s, long long length, long long samples) {
  pe::DistanceComparisonParams p;
  p.training_length = s.training_length;
  p.length = length;
  p.samples = samples;
  p.heads = s.heads;
  p.head = selected_head(s);
  p.t5 = t5_params(s);
  p.t5_head = p.head;
  p.kerple_log = kerple_params(s);
  p.kerple_power = kerple_params(s);
  p.sandwich_dim = s.sandwich_dim;
  p.fire = fire_params(s);
  p.dim = s.rope.head_dim;
  p.theta = s.rope.theta;
  p.scale_base = s.scale_base;
  return p;
}

long long distance_axis_length(const AppState& s) {
  if (s.length > s.training_length) return s.length;
  return std::min<long long>(4 * s.training_length, 1'000'000'000LL);
}

void validate_relative(const AppState& s) {
  if (s.num_buckets > kMaxViewBuckets)  // before core's check, which would blame max_distance
    throw pe::InvalidArgument("num_buckets", pe::format_integer(s.num_buckets),
                              std::string(s.causal ? "2" : "4") + " ... " + pe::format_integer(kMaxViewBuckets) +
                                  " (the views keep a num_buckets × heads bias table)");
  pe::require_t5_bucket_params(t5_params(s));  // its lower bounds, with their reasons
  pe::require_in_range("max_position_embeddings", s.max_position_embeddings, 1, 1'000'000'000LL);
  pe::require_in_range("max_relative_positions", s.max_relative_positions, -1, 1'000'000'000LL);
  pe::require_deberta_params(deberta_params(s));
  pe::deberta_attention_types_from_string(s.pos_att_type);
  pe::relative_key_type_from_string(s.position_embedding_type);
  if (!std::isfinite(s.scale_base) || !(s.scale_base > 0.0))
    throw pe::InvalidArgument("scale_base", pe::format_double(s.scale_base), "a finite number > 0 (xPos divides positions by it)");
  pe::require_kerple_log(kerple_params(s));
  pe::require_kerple_power(kerple_params(s));  // one (r1, r2) serves both variants: r2 <= 2
  pe::require_even_dim("sandwich_dim", s.sandwich_dim, "Sandwich");
  pe::require_in_range("sandwich_dim", s.sandwich_dim, 2, kMaxViewDim);
  pe::require_fire_params(fire_params(s));
  const long long tokens = static_cast<long long>(pe::cope_tokens(s.cope_text).size());
  if (tokens < 1 || tokens > kMaxViewCopeTokens)
    throw pe::InvalidArgument("cope_text", pe::format_integer(tokens) + " tokens",
                              "1 ... " + pe::format_integer(kMaxViewCopeTokens) + " tokens (words and punctuation marks)");
  pe::cope_gate_pattern_from_string(s.cope_gates);
  pe::require_in_range("cope_npos_max", s.cope_npos_max, 1, pe::kMaxCopePositions);
  pe::require_in_range("training_length", s.training_length, 2, 1'000'000'000LL);
  pe::require_in_range("clamp_len", s.clamp_len, 0, 1'000'000'000LL);
}

}  // namespace app
