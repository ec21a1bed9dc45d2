// Sandwich: Chi et al. 2023, §5 — the inner product of two sinusoidal position embeddings
// (Vaswani et al. 2017, §3.5) as a relative bias.
#include "pe/relative/sandwich.hpp"

#include <cmath>

#include "pe/base/errors.hpp"
#include "pe/encodings/simd.hpp"
#include "pe/encodings/sinusoidal.hpp"

namespace pe {

double sandwich_inner_product(double distance, long long sandwich_dim) {
  require_even_dim("sandwich_dim", sandwich_dim, "Sandwich");
  require_finite("distance", distance);
  // sin(mω)sin(nω) + cos(mω)cos(nω) = cos((m − n)ω), summed over the d̄/2 frequencies.
  const Eigen::ArrayXd omega = sinusoidal_frequencies(sandwich_dim, 10000.0);
  return (distance * omega).cos().sum();
}

double sandwich_bias(double distance, long long sandwich_dim) {
  return sandwich_inner_product(distance, sandwich_dim) - static_cast<double>(sandwich_dim / 2);
}

Eigen::ArrayXd sandwich_bias_curve(const Eigen::Ref<const Eigen::ArrayXd>& distances, long long sandwich_dim) {
  require_even_dim("sandwich_dim", sandwich_dim, "Sandwich");
  if (!distances.isFinite().all()) throw InvalidArgument("distances", "a non-finite entry", "distances must be finite");
  const Eigen::ArrayXd omega = sinusoidal_frequencies(sandwich_dim, 10000.0);
  // Core's vector sincos (Eigen's cos of doubles is scalar libm): a curve is samples × d̄/2 cosines.
  Eigen::ArrayXd out(distances.size()), angle(omega.size()), sn(omega.size()), cs(omega.size());
  for (Eigen::Index i = 0; i < distances.size(); ++i) {
    angle = distances[i] * omega;
    sincos_batch(angle.data(), sn.data(), cs.data(), angle.size());
    out[i] = cs.sum() - static_cast<double>(sandwich_dim / 2);
  }
  return out;
}

}  // namespace pe
