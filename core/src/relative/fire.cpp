// FIRE's input transform: Li et al. 2023, §3 (ψ(x) = log(c·x + 1), normalised by ψ(max(L, i))).
#include "pe/relative/fire.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "pe/base/errors.hpp"

namespace pe {

namespace {

double psi(double x, double c) { return std::log1p(c * x); }

double transform_unchecked(long long query, long long key, const FireParams& p) {
  const double distance = static_cast<double>(std::llabs(query - key));
  const double normaliser = std::max(p.fire_threshold, static_cast<double>(query));
  return psi(distance, p.fire_c) / psi(normaliser, p.fire_c);
}

}  // namespace

void require_fire_params(const FireParams& p) {
  if (!std::isfinite(p.fire_c) || !(p.fire_c > 0.0))
    throw InvalidArgument("fire_c", format_double(p.fire_c), "FIRE needs a finite fire_c > 0 (log(c·x + 1))");
  if (!std::isfinite(p.fire_threshold) || !(p.fire_threshold > 0.0) || p.fire_threshold > static_cast<double>(kMaxLength))
    throw InvalidArgument("fire_threshold", format_double(p.fire_threshold),
                          "FIRE needs fire_threshold (L) > 0 and at most " + format_integer(kMaxLength) +
                              " (at query 0, log(c·max(L, 0) + 1) would be 0)");
}

double fire_transform(long long query, long long key, const FireParams& params) {
  require_fire_params(params);
  require_in_range("query", query, 0, kMaxLength);
  require_in_range("key", key, 0, kMaxLength);
  return transform_unchecked(query, key, params);
}

Eigen::ArrayXd fire_transform_curve(long long query, const Eigen::Ref<const Eigen::ArrayXd>& distances,
                                    const FireParams& params) {
  require_fire_params(params);
  require_in_range("query", query, 0, kMaxLength);
  Eigen::ArrayXd out(distances.size());
  for (Eigen::Index i = 0; i < distances.size(); ++i) {
    const double d = distances[i];
    if (!std::isfinite(d) || d < 0.0) throw InvalidArgument("distances", format_double(d), "distances must be finite and >= 0");
    const long long key = query - std::min(query, static_cast<long long>(std::llround(d)));
    out[i] = transform_unchecked(query, key, params);
  }
  return out;
}

TableD fire_transform_matrix(long long length, const FireParams& params) {
  require_fire_params(params);
  require_length("length", length);
  check_table_budget("FIRE transform matrix", length, length, sizeof(double));
  TableD out = TableD::Zero(length, length);
  for (long long i = 0; i < length; ++i)
    for (long long j = 0; j <= i; ++j) out(i, j) = transform_unchecked(i, j, params);
  return out;
}

}  // namespace pe
