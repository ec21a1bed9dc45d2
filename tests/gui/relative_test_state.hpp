#pragma once
// Every relative-position parameter set away from its default and within its range: a state
// whose round trip (a session file, a link) shows that each key survives. Tests set the
// values that differ between them (pos_att_type, the CoPE sentence and its gates) after.
#include "state/app_state.hpp"

namespace pe_test {

inline app::AppState with_relative_parameters(app::AppState s) {
  s.num_buckets = 64;
  s.max_distance = 300;
  s.causal = true;
  s.position_buckets = 128;
  s.max_relative_positions = 400;
  s.max_position_embeddings = 1024;
  s.position_embedding_type = "relative_key_query";
  s.scale_base = 123.5;
  s.r1 = 0.25;
  s.r2 = 1.75;
  s.sandwich_dim = 32;
  s.fire_c = 0.125;
  s.fire_threshold = 2048.0;
  s.cope_npos_max = 9;
  s.training_length = 4096;
  s.clamp_len = 77;
  return s;
}

}  // namespace pe_test
