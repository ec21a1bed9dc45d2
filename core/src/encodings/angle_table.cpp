#include "pe/encodings/angle_table.hpp"

#include <cmath>
#include <string>

#include "pe/base/errors.hpp"

namespace pe {

void angle_table_into(AngleTable& out, const Eigen::ArrayXd& inv_freq, long long positions) {
  if (positions < 0) throw InvalidArgument("positions", std::to_string(positions), "0 or more");
  for (Eigen::Index i = 0; i < inv_freq.size(); ++i)
    if (!std::isfinite(inv_freq[i])) throw InvalidArgument("inv_freq", "non-finite entry", "finite frequencies");
  const Eigen::Index n = inv_freq.size();
  out.positions = positions;
  out.pairs = n;
  out.cos.resize(std::size_t(positions * n));
  out.sin.resize(std::size_t(positions * n));
  std::vector<double> step_c(static_cast<std::size_t>(n)), step_s(static_cast<std::size_t>(n));
  for (Eigen::Index i = 0; i < n; ++i) {
    step_c[std::size_t(i)] = std::cos(inv_freq[i]);
    step_s[std::size_t(i)] = std::sin(inv_freq[i]);
  }
  for (long long p = 0; p < positions; ++p) {
    double* c = out.cos.data() + p * n;
    double* s = out.sin.data() + p * n;
    if (p % kAngleTableAnchor == 0) {
      // Exact anchor: the same product p·ω apply_rope takes the cosine of.
      for (Eigen::Index i = 0; i < n; ++i) {
        const double a = double(p) * inv_freq[i];
        c[i] = std::cos(a);
        s[i] = std::sin(a);
      }
      continue;
    }
    // cos/sin((p−1)ω + ω) by angle addition: one rotation of the previous row per entry.
    const double* pc = c - n;
    const double* ps = s - n;
    for (Eigen::Index i = 0; i < n; ++i) {
      c[i] = pc[i] * step_c[std::size_t(i)] - ps[i] * step_s[std::size_t(i)];
      s[i] = ps[i] * step_c[std::size_t(i)] + pc[i] * step_s[std::size_t(i)];
    }
  }
}

void rotate_with_angles(const AngleTable& t, long long p, const double* x, double* y, PairConvention convention) {
  const double* c = t.cos_row(p);
  const double* s = t.sin_row(p);
  const Eigen::Index n = t.pairs;
  for (Eigen::Index k = 0; k < n; ++k) {
    const Eigen::Index i = convention == PairConvention::Interleaved ? 2 * k : k;
    const Eigen::Index j = convention == PairConvention::Interleaved ? 2 * k + 1 : k + n;
    y[i] = x[i] * c[k] - x[j] * s[k];
    y[j] = x[i] * s[k] + x[j] * c[k];
  }
}

void half_split_cache_mix_with_angles(const AngleTable& t, long long p, const double* x, double* y) {
  const double* c = t.cos_row(p);
  const double* s = t.sin_row(p);
  const Eigen::Index half = t.pairs;
  for (Eigen::Index i = 0; i < half; ++i) {
    // Column j of cat(freqs, freqs) holds frequency j mod d/2 (as apply_half_split_cache_mix);
    // j < d, so one conditional subtraction is the modulo (a division per entry cost ~2 ms a
    // frame at d = 1024 while θ is dragged).
    const Eigen::Index ja = 2 * i, jb = 2 * i + 1;
    const Eigen::Index a = ja >= half ? ja - half : ja, b = jb >= half ? jb - half : jb;
    const double x1 = x[2 * i], x2 = x[2 * i + 1];
    y[2 * i] = x1 * c[a] - x2 * s[a];
    y[2 * i + 1] = x1 * s[b] + x2 * c[b];
  }
}

void interleaved_cache_mix_with_angles(const AngleTable& t, long long p, const double* x, double* y) {
  const double* c = t.cos_row(p);
  const double* s = t.sin_row(p);
  const Eigen::Index half = t.pairs;
  for (Eigen::Index j = 0; j < 2 * half; ++j) {
    // repeat_interleave'd cache: column j holds frequency j // 2; rotate_half swaps halves.
    const double partner = j < half ? -x[j + half] : x[j - half];
    y[j] = x[j] * c[j / 2] + partner * s[j / 2];
  }
}

}  // namespace pe
