// NoPE with a causal mask: Kazemnejad et al. 2023, Theorem 1 (a uniform causal head reads a
// start token's marker with weight 1/(t + 1)).
#include "pe/relative/nope.hpp"

#include "pe/base/errors.hpp"

namespace pe {

double nope_start_token_share(long long position) {
  require_in_range("position", position, 0, kMaxLength);
  return 1.0 / static_cast<double>(position + 1);
}

Eigen::ArrayXd nope_position_signal(long long length) {
  require_length("length", length);
  check_table_budget("NoPE position signal", length, 1, sizeof(double));
  return 1.0 / Eigen::ArrayXd::LinSpaced(length, 1.0, static_cast<double>(length));
}

double nope_signal_step(long long position) {
  require_in_range("position", position, 0, kMaxLength);
  const double t = static_cast<double>(position);
  return 1.0 / ((t + 1.0) * (t + 2.0));
}

}  // namespace pe
