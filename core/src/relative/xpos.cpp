// xPos: microsoft/torchscale torchscale/component/xpos_relative_position.py (XPOS: the
// `scale` buffer, the centred positions, downscale for keys).
#include "pe/relative/xpos.hpp"

#include <cmath>

#include "pe/base/errors.hpp"
#include "pe/encodings/rope.hpp"
#include "pe/encodings/simd.hpp"

namespace pe {

void require_xpos_params(long long dim, double scale_base) {
  require_even_dim("dim", dim, "xPos");
  if (!std::isfinite(scale_base) || !(scale_base > 0.0)) {
    throw InvalidArgument("scale_base", format_double(scale_base),
                          "xPos needs a finite scale_base > 0 (positions are divided by it; a negative one turns the "
                          "decay into growth)");
  }
}

Eigen::ArrayXd xpos_zeta(long long dim) {
  require_even_dim("dim", dim, "xPos");
  // (torch.arange(0, head_dim, 2) + 0.4 * head_dim) / (1.4 * head_dim): entry i is (2i + 0.4d)/(1.4d).
  const double d = static_cast<double>(dim);
  Eigen::ArrayXd zeta(dim / 2);
  for (long long i = 0; i < dim / 2; ++i) zeta[i] = (2.0 * static_cast<double>(i) + 0.4 * d) / (1.4 * d);
  return zeta;
}

namespace {

// ζ_i^e as exp(e · ln ζ_i): Eigen vectorizes exp, not pow (a pow per entry was most of a
// frame of distance-bias at d = 1024); the two agree to |e · ln ζ_i| ulps.
Eigen::ArrayXd xpos_log_zeta(long long dim) { return xpos_zeta(dim).log(); }

}  // namespace

TableD xpos_q_scales(long long dim, long long length, double scale_base, long long first_position) {
  require_xpos_params(dim, scale_base);
  require_length("length", length);
  require_in_range("first_position", first_position, -kMaxLength, kMaxLength);
  check_table_budget("xPos scales", length, dim / 2, sizeof(double));
  const Eigen::ArrayXd log_zeta = xpos_log_zeta(dim);
  TableD scales(length, dim / 2);
  for (long long p = 0; p < length; ++p) {
    const double exponent = static_cast<double>(first_position + p) / scale_base;
    scales.row(p) = (exponent * log_zeta).exp().transpose();
  }
  return scales;
}

Eigen::ArrayXd xpos_torchscale_positions(long long length, long long offset) {
  require_length("length", length);
  require_in_range("offset", offset, 0, kMaxLength);
  check_table_budget("xPos positions", length, 1, sizeof(double));
  // min_pos = -(length + offset) // 2 in Python (floor division of a negative number).
  const long long total = length + offset;
  const long long min_pos = -((total + 1) / 2);
  // torchscale keeps the last `length` of the total rows: row t is min_pos + offset + t.
  Eigen::ArrayXd positions(length);
  for (long long t = 0; t < length; ++t) positions[t] = static_cast<double>(min_pos + offset + t);
  return positions;
}

TableD xpos_decay(long long dim, const Eigen::Ref<const Eigen::ArrayXd>& deltas, double scale_base) {
  require_xpos_params(dim, scale_base);
  if (!deltas.isFinite().all()) throw InvalidArgument("deltas", "a non-finite entry", "distances must be finite");
  check_table_budget("xPos decay", deltas.size(), dim / 2, sizeof(double));
  const Eigen::ArrayXd log_zeta = xpos_log_zeta(dim);
  TableD decay(deltas.size(), dim / 2);
  for (Eigen::Index r = 0; r < deltas.size(); ++r) decay.row(r) = (deltas[r] / scale_base * log_zeta).exp().transpose();
  return decay;
}

Eigen::ArrayXd xpos_mean_decay(long long dim, const Eigen::Ref<const Eigen::ArrayXd>& deltas, double scale_base) {
  require_xpos_params(dim, scale_base);
  if (!deltas.isFinite().all()) throw InvalidArgument("deltas", "a non-finite entry", "distances must be finite");
  // Row by row: the curve needs no deltas × d/2 table.
  const Eigen::ArrayXd log_zeta = xpos_log_zeta(dim);
  Eigen::ArrayXd mean(deltas.size());
  for (Eigen::Index r = 0; r < deltas.size(); ++r) mean[r] = (deltas[r] / scale_base * log_zeta).exp().mean();
  return mean;
}

Eigen::ArrayXd xpos_relative_score_curve(const RelativeScoreCoefficients& c, long long dim,
                                         const Eigen::Ref<const Eigen::ArrayXd>& deltas, double scale_base) {
  require_xpos_params(dim, scale_base);
  return xpos_relative_score_curve(c, inverse_frequencies(dim, 10000.0), deltas, scale_base);
}

Eigen::ArrayXd xpos_relative_score_curve(const RelativeScoreCoefficients& c, const Eigen::ArrayXd& inv_freq,
                                         const Eigen::Ref<const Eigen::ArrayXd>& deltas, double scale_base) {
  const long long dim = 2 * inv_freq.size();
  require_xpos_params(dim, scale_base);
  if (c.a.size() != dim / 2 || c.b.size() != dim / 2) {
    throw InvalidArgument("coefficients", format_integer(c.a.size()) + " pairs",
                          "xPos with dim = " + format_integer(dim) + " needs " + format_integer(dim / 2) + " pairs");
  }
  if (!inv_freq.isFinite().all()) throw InvalidArgument("inv_freq", "a non-finite entry", "finite frequencies");
  if (!deltas.isFinite().all()) throw InvalidArgument("deltas", "a non-finite entry", "distances must be finite");
  const Eigen::ArrayXd log_zeta = xpos_log_zeta(dim);
  Eigen::ArrayXd s(deltas.size()), angle(dim / 2), sn(dim / 2), cs(dim / 2);
  for (Eigen::Index r = 0; r < deltas.size(); ++r) {
    // analysis' coefficients are for key − query = −Δ: a·cos(−Δθ) + b·sin(−Δθ).
    angle = deltas[r] * inv_freq;
    sincos_batch(angle.data(), sn.data(), cs.data(), angle.size());
    s[r] = ((deltas[r] / scale_base * log_zeta).exp() * (c.a * cs - c.b * sn)).sum() + c.passthrough;
  }
  return s;
}

}  // namespace pe
