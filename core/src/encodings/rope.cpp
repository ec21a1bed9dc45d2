// Rotary position embedding (Su et al. 2021, RoFormer §3.2–3.4).
#include "pe/encodings/rope.hpp"

#include "pe/encodings/simd.hpp"
#include "pe/encodings/simd_kernels.hpp"

#include <algorithm>
#include <cmath>

#include "pe/base/errors.hpp"
#include "pe/base/text.hpp"

namespace pe {

namespace {

void require_finite_entries(const char* parameter, const double* data, Eigen::Index count) {
  for (Eigen::Index j = 0; j < count; ++j) {
    if (!std::isfinite(data[j])) {
      throw InvalidArgument(std::string(parameter) + "[" + std::to_string(j) + "]", format_double(data[j]),
                            "entries must be finite numbers");
    }
  }
}

void require_rotary_size(const char* parameter, Eigen::Index size, Eigen::Index pairs) {
  if (size < 2 * pairs) {
    throw InvalidArgument(std::string(parameter) + " size", std::to_string(size),
                          "needs at least 2 x inv_freq.size() = " + std::to_string(2 * pairs) +
                              " dims (one pair per frequency)");
  }
}

// Rotates the rotary block of y in place to `position`. The angle p·θ_k is formed in
// double, so positions up to ~1e9 keep ~1e-7 rad accuracy.
void rotate_in_place(double* y, double position, const Eigen::ArrayXd& inv_freq, PairConvention convention,
                     RotationSign sign) {
  const long long pairs = inv_freq.size();
  const double s_sign = sign == RotationSign::Negative ? -1.0 : 1.0;
  for (long long k = 0; k < pairs; ++k) {
    // Same layout as pair_dims, without re-validating in the inner loop.
    const long long i = convention == PairConvention::Interleaved ? 2 * k : k;
    const long long j = convention == PairConvention::Interleaved ? 2 * k + 1 : k + pairs;
    const double angle = position * inv_freq[k];
    const double c = std::cos(angle);
    const double s = s_sign * std::sin(angle);
    const double x1 = y[i], x2 = y[j];
    y[i] = x1 * c - x2 * s;  // [cos −sin; sin cos]·(x1, x2)
    y[j] = x1 * s + x2 * c;
  }
}

}  // namespace

const char* to_string(PairConvention c) {
  return c == PairConvention::Interleaved ? "interleaved" : "half-split";
}

PairConvention pair_convention_from_string(const std::string& s) {
  const std::string t = ascii_lower(s);
  if (t == "interleaved" || t == "gptj" || t == "gpt-j") return PairConvention::Interleaved;
  if (t == "half-split" || t == "halfsplit" || t == "half_split" || t == "rotate_half" || t == "neox" ||
      t == "gpt-neox") {
    return PairConvention::HalfSplit;
  }
  throw InvalidArgument("convention", "\"" + s + "\"", "one of \"interleaved\", \"half-split\"");
}

void require_frequencies(const char* parameter, const Eigen::ArrayXd& freqs) {
  if (freqs.size() < 1 || freqs.size() > kMaxDim / 2) {
    throw InvalidArgument(std::string(parameter) + " size", std::to_string(freqs.size()),
                          "needs 1 ... " + std::to_string(kMaxDim / 2) + " frequencies");
  }
  for (Eigen::Index k = 0; k < freqs.size(); ++k) {
    if (!std::isfinite(freqs[k]) || freqs[k] < 0.0) {
      throw InvalidArgument(std::string(parameter) + "[" + std::to_string(k) + "]", format_double(freqs[k]),
                            "frequencies must be finite and >= 0");
    }
  }
}

Eigen::ArrayXd inverse_frequencies(long long dim, double theta) {
  require_even_dim("dim", dim, "RoPE");
  require_theta("theta", theta);
  // θ_i = theta^(−2i/d), RoFormer eq. (15); the exponent is exact for every i < d/2.
  Eigen::ArrayXd f(dim / 2);
  for (long long i = 0; i < dim / 2; ++i) f[i] = std::pow(theta, -(2.0 * static_cast<double>(i)) / static_cast<double>(dim));
  return f;
}

std::pair<long long, long long> pair_dims(PairConvention c, long long rotary_dim, long long pair) {
  require_even_dim("rotary_dim", rotary_dim, "RoPE");
  require_in_range("pair", pair, 0, rotary_dim / 2 - 1);
  if (c == PairConvention::Interleaved) return {2 * pair, 2 * pair + 1};
  return {pair, pair + rotary_dim / 2};
}

std::vector<long long> pair_permutation(long long dim, PairConvention from, PairConvention to) {
  require_even_dim("dim", dim, "RoPE");
  std::vector<long long> perm(static_cast<std::size_t>(dim));
  for (long long p = 0; p < dim / 2; ++p) {
    const auto [f1, f2] = pair_dims(from, dim, p);
    const auto [t1, t2] = pair_dims(to, dim, p);
    perm[static_cast<std::size_t>(f1)] = t1;
    perm[static_cast<std::size_t>(f2)] = t2;
  }
  return perm;
}

PhasorRecurrence::PhasorRecurrence(const Eigen::ArrayXd& freqs, double step)
    : freqs_(freqs), step_cos_((step * freqs).cos()), step_sin_((step * freqs).sin()),
      cos_(Eigen::ArrayXd::Ones(freqs.size())), sin_(Eigen::ArrayXd::Zero(freqs.size())) {}

void PhasorRecurrence::anchor(double x) {
  const Eigen::ArrayXd angles = x * freqs_;
  sincos_batch(angles.data(), sin_.data(), cos_.data(), angles.size());
}

void PhasorRecurrence::advance() noexcept {
  // e^{i(a+h)} = e^{ia}·e^{ih}, vectorized (simd_kernels).
  simd::kernels().advance(freqs_.size(), cos_.data(), sin_.data(), step_cos_.data(), step_sin_.data());
}

PhasorRows::PhasorRows(const Eigen::ArrayXd& freqs, long long first_position)
    : pairs_(freqs.size()), position_(first_position), anchors_(freqs, static_cast<double>(kBlock)),
      step_cos_(static_cast<std::size_t>(kBlock * pairs_)), step_sin_(step_cos_.size()),
      anchor_cos_(static_cast<std::size_t>(pairs_)), anchor_sin_(anchor_cos_.size()) {
  // e^{i·j·θ}, j < kBlock, by the double recurrence from e^{i·0} = 1 (drift ~1e-14 here).
  PhasorRecurrence steps(freqs, 1.0);
  steps.anchor(0.0);
  for (long long j = 0; j < kBlock; ++j) {
    if (j > 0) steps.advance();
    for (long long k = 0; k < pairs_; ++k) {
      step_cos_[static_cast<std::size_t>(j * pairs_ + k)] = static_cast<float>(steps.cos()[k]);
      step_sin_[static_cast<std::size_t>(j * pairs_ + k)] = static_cast<float>(steps.sin()[k]);
    }
  }
}

void PhasorRows::next_anchor() {
  // Anchors advance by kBlock positions per block; exact re-anchor every kAnchorInterval rows.
  constexpr long long kBlocksPerAnchor = PhasorRecurrence::kAnchorInterval / kBlock;
  if (blocks_ % kBlocksPerAnchor == 0) {
    anchors_.anchor(static_cast<double>(position_));
  } else {
    anchors_.advance();
  }
  ++blocks_;
  position_ += kBlock;
  for (long long k = 0; k < pairs_; ++k) {
    anchor_cos_[static_cast<std::size_t>(k)] = static_cast<float>(anchors_.cos()[k]);
    anchor_sin_[static_cast<std::size_t>(k)] = static_cast<float>(anchors_.sin()[k]);
  }
}

void PhasorRows::next_block(long long count, float* cos_out, float* sin_out, long long stride) {
  require_in_range("count", count, 1, kBlock);
  require_in_range("stride", stride, pairs_, kMaxDim);
  next_anchor();
  simd::kernels().rotate_rows(count, pairs_, anchor_cos_.data(), anchor_sin_.data(), step_cos_.data(), step_sin_.data(), cos_out,
                              sin_out, stride);
}

void PhasorRows::next_block_interleaved(long long count, float* out, long long stride, long long columns) {
  require_in_range("count", count, 1, kBlock);
  require_in_range("columns", columns, 2 * pairs_ - 1, 2 * pairs_);
  require_in_range("stride", stride, columns, kMaxDim);
  next_anchor();
  simd::kernels().rotate_rows_interleaved(count, pairs_, columns / 2, columns % 2 != 0, anchor_cos_.data(), anchor_sin_.data(),
                                          step_cos_.data(), step_sin_.data(), out, stride);
}

void rope_tables_into(RopeTables& out, const Eigen::ArrayXd& inv_freq, long long length, long long first_position) {
  require_frequencies("inv_freq", inv_freq);
  require_length("length", length);
  require_in_range("first_position", first_position, -kMaxLength, kMaxLength - (length - 1));
  const Eigen::Index n = inv_freq.size();
  check_table_budget("RoPE cos+sin tables", length, n, 2 * sizeof(float));

  out.cos.resize(length, n);  // no-op when the shape is unchanged
  out.sin.resize(length, n);
  PhasorRows rows(inv_freq, first_position);
  for (long long r = 0; r < length; r += PhasorRows::kBlock) {
    const long long count = std::min(PhasorRows::kBlock, length - r);
    rows.next_block(count, out.cos.data() + r * n, out.sin.data() + r * n, n);
  }
}

RopeTables rope_tables(const Eigen::ArrayXd& inv_freq, long long length, long long first_position) {
  RopeTables t;
  rope_tables_into(t, inv_freq, length, first_position);
  return t;
}

Eigen::VectorXd apply_rope(const Eigen::Ref<const Eigen::VectorXd>& x, double position,
                           const Eigen::ArrayXd& inv_freq, PairConvention convention, RotationSign sign) {
  require_frequencies("inv_freq", inv_freq);
  require_finite("position", position);
  require_rotary_size("x", x.size(), inv_freq.size());
  require_finite_entries("x", x.data(), x.size());
  Eigen::VectorXd y = x;
  rotate_in_place(y.data(), position, inv_freq, convention, sign);
  return y;
}

MatrixD apply_rope(const Eigen::Ref<const MatrixD>& rows, const Eigen::Ref<const Eigen::ArrayXd>& positions,
                   const Eigen::ArrayXd& inv_freq, PairConvention convention, RotationSign sign) {
  require_frequencies("inv_freq", inv_freq);
  if (positions.size() != rows.rows()) {
    throw InvalidArgument("positions size", std::to_string(positions.size()),
                          "needs one position per row (" + std::to_string(rows.rows()) + ")");
  }
  require_finite_entries("positions", positions.data(), positions.size());
  require_rotary_size("rows", rows.cols(), inv_freq.size());
  MatrixD y = rows;  // a plain row-major copy: each row is contiguous
  require_finite_entries("rows", y.data(), y.size());
  for (Eigen::Index r = 0; r < y.rows(); ++r) {
    rotate_in_place(y.data() + r * y.cols(), positions[r], inv_freq, convention, sign);
  }
  return y;
}

Eigen::VectorXd apply_half_split_cache_mix(const Eigen::Ref<const Eigen::VectorXd>& x, double position,
                                           const Eigen::ArrayXd& inv_freq) {
  require_frequencies("inv_freq", inv_freq);
  require_finite("position", position);
  const Eigen::Index half = inv_freq.size();
  if (x.size() != 2 * half) {
    throw InvalidArgument("x size", std::to_string(x.size()),
                          "must be 2·inv_freq.size() = " + std::to_string(2 * half) + " (the mix rotates every dim)");
  }
  require_finite_entries("x", x.data(), x.size());
  Eigen::VectorXd y(x.size());
  for (Eigen::Index i = 0; i < half; ++i) {
    // Column j of cat(freqs, freqs) holds frequency j mod d/2.
    const double alpha = position * inv_freq[(2 * i) % half];
    const double beta = position * inv_freq[(2 * i + 1) % half];
    const double x1 = x[2 * i], x2 = x[2 * i + 1];
    y[2 * i] = x1 * std::cos(alpha) - x2 * std::sin(alpha);
    y[2 * i + 1] = x1 * std::sin(beta) + x2 * std::cos(beta);
  }
  return y;
}

}  // namespace pe
