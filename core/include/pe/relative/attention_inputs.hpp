#pragma once
// The relative families' inputs to analysis' attention patterns (AttentionMethod::T5Bias,
// Kerple, Xpos): analysis sits below this module, so the bias tables and ζ are made here.
//   T5Bias: bias(m, n) = table[bucket(n − m)][head] (t5_bias_matrix: key − query, compute_bias)
//   Kerple: bias(m, n) = −r1·log(1 + r2·(m − n)) for n <= m (KERPLE's log variant; 0 above)
//   Xpos:   ζ_i of xpos_zeta(dim) and scale_base (odd dims leave ζ empty: xPos needs pairs)
#include "pe/relative/module_guard.hpp"

#include "pe/analysis/analysis.hpp"
#include "pe/relative/kerple.hpp"
#include "pe/relative/t5_bias.hpp"
#include "pe/relative/t5_buckets.hpp"

namespace pe {

// params.length and params.dim must be set; `head` is 0-based. Throws InvalidArgument as the
// families' own functions do (t5_bias_matrix, require_kerple_log, require_xpos_params).
void set_relative_attention_inputs(AttentionParams& params, const T5BucketParams& t5, const T5BiasTable& table, long long head,
                                   const KerpleParams& kerple, double scale_base);

}  // namespace pe
