#include "pe/relative/attention_inputs.hpp"

#include "pe/base/errors.hpp"
#include "pe/relative/xpos.hpp"

namespace pe {

void set_relative_attention_inputs(AttentionParams& params, const T5BucketParams& t5, const T5BiasTable& table, long long head,
                                   const KerpleParams& kerple, double scale_base) {
  const long long n = params.length;
  require_length("length", n);
  params.t5_bias = t5_bias_matrix(table, t5, n, n, head);
  require_kerple_log(kerple);
  params.kerple_bias = TableD::Zero(n, n);
  for (long long m = 0; m < n; ++m)
    for (long long k = 0; k <= m; ++k) params.kerple_bias(m, k) = kerple_log_bias(static_cast<double>(m - k), kerple);
  params.xpos_scale_base = scale_base;
  params.xpos_zeta = params.dim % 2 == 0 ? xpos_zeta(params.dim) : Eigen::ArrayXd();
}

}  // namespace pe
