#include "pe/analysis/interleaved_cache_mix.hpp"

#include <cmath>
#include <string>

#include "pe/base/errors.hpp"
#include "pe/encodings/rope.hpp"

namespace pe {

Eigen::VectorXd apply_interleaved_cache_mix(const Eigen::Ref<const Eigen::VectorXd>& x, double position,
                                           const Eigen::ArrayXd& inv_freq) {
  require_frequencies("inv_freq", inv_freq);
  require_finite("position", position);
  const Eigen::Index half = inv_freq.size();
  if (x.size() != 2 * half) {
    throw InvalidArgument("x size", std::to_string(x.size()),
                          "must be 2·inv_freq.size() = " + std::to_string(2 * half) + " (the mix rotates every dim)");
  }
  for (Eigen::Index j = 0; j < x.size(); ++j)
    if (!std::isfinite(x[j])) throw InvalidArgument("x[" + std::to_string(j) + "]", format_double(x[j]), "finite numbers");
  // emb = freqs.repeat_interleave(2): column j holds frequency j // 2.
  Eigen::VectorXd y(x.size());
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    const double angle = position * inv_freq[j / 2];
    // rotate_half(x)[j] = −x[j + d/2] in the first half, x[j − d/2] in the second.
    const double partner = j < half ? -x[j + half] : x[j - half];
    y[j] = x[j] * std::cos(angle) + partner * std::sin(angle);
  }
  return y;
}

}  // namespace pe
