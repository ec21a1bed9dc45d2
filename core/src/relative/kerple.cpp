// KERPLE: chijames/KERPLE megatron/mpu/layers.py (ParallelKerpleLog: −p·log(1 + a·diff);
// ParallelKerplePower: −a·diff^p).
#include "pe/relative/kerple.hpp"

#include <cmath>

#include "pe/base/errors.hpp"

namespace pe {

namespace {

void require_r1(double r1) {
  if (!std::isfinite(r1) || !(r1 > 0.0))
    throw InvalidArgument("r1", format_double(r1), "KERPLE needs a finite r1 > 0 (the reference clamps it to >= 0.01)");
}

void require_distance(double distance) {
  if (!std::isfinite(distance) || distance < 0.0)
    throw InvalidArgument("distance", format_double(distance), "a distance |m - n| must be finite and >= 0");
}

}  // namespace

void require_kerple_log(const KerpleParams& p) {
  require_r1(p.r1);
  if (!std::isfinite(p.r2) || !(p.r2 > 0.0))
    throw InvalidArgument("r2", format_double(p.r2),
                          "KERPLE log needs a finite r2 > 0 (otherwise 1 + r2·|m - n| reaches log(<= 0))");
}

void require_kerple_power(const KerpleParams& p) {
  require_r1(p.r1);
  if (!std::isfinite(p.r2) || !(p.r2 > 0.0) || p.r2 > 2.0)
    throw InvalidArgument("r2", format_double(p.r2),
                          "KERPLE power needs 0 < r2 <= 2 (a conditionally positive definite kernel)");
}

double kerple_log_bias(double distance, const KerpleParams& params) {
  require_kerple_log(params);
  require_distance(distance);
  return -params.r1 * std::log1p(params.r2 * distance) + 0.0;  // + 0.0: distance 0 gives +0, not −0
}

double kerple_power_bias(double distance, const KerpleParams& params) {
  require_kerple_power(params);
  require_distance(distance);
  return -params.r1 * std::pow(distance, params.r2) + 0.0;
}

Eigen::ArrayXd kerple_log_curve(const Eigen::Ref<const Eigen::ArrayXd>& distances, const KerpleParams& params) {
  Eigen::ArrayXd out(distances.size());
  for (Eigen::Index i = 0; i < distances.size(); ++i) out[i] = kerple_log_bias(distances[i], params);
  return out;
}

Eigen::ArrayXd kerple_power_curve(const Eigen::Ref<const Eigen::ArrayXd>& distances, const KerpleParams& params) {
  Eigen::ArrayXd out(distances.size());
  for (Eigen::Index i = 0; i < distances.size(); ++i) out[i] = kerple_power_bias(distances[i], params);
  return out;
}

}  // namespace pe
