// Transformer-XL's relative attention: kimiyoung/transformer-xl pytorch/mem_transformer.py
// (PositionalEmbedding; RelPartialLearnableMultiHeadAttn: AC, BD, _rel_shift, scale).
#include "pe/relative/transformer_xl.hpp"

#include <algorithm>
#include <cmath>

#include "pe/base/errors.hpp"
#include "pe/encodings/learned.hpp"

namespace pe {

namespace {
inline constexpr long long kMaxMapDim = 4096;
}

Eigen::VectorXd transformer_xl_r(long long distance, long long d_model, long long clamp_len) {
  require_even_dim("d_model", d_model, "Transformer-XL's sinusoid");
  require_in_range("distance", distance, 0, kMaxLength);
  require_in_range("clamp_len", clamp_len, -1, kMaxLength);
  // pos_seq.clamp_(max=clamp_len) when clamp_len > 0.
  const double n = static_cast<double>(clamp_len > 0 ? std::min(distance, clamp_len) : distance);
  const long long half = d_model / 2;
  Eigen::VectorXd r(d_model);
  for (long long k = 0; k < half; ++k) {
    // inv_freq = 1 / 10000^(arange(0, demb, 2) / demb); pos_emb = cat([sin, cos], -1).
    const double f = std::pow(10000.0, -2.0 * static_cast<double>(k) / static_cast<double>(d_model));
    r[k] = std::sin(n * f);
    r[half + k] = std::cos(n * f);
  }
  return r;
}

double TransformerXlTerms::logit() const noexcept { return (a + b + c + d) / std::sqrt(d_head); }

TransformerXlTerms transformer_xl_terms(const Eigen::Ref<const Eigen::VectorXd>& q,
                                        const Eigen::Ref<const Eigen::VectorXd>& k,
                                        const Eigen::Ref<const Eigen::VectorXd>& r,
                                        const Eigen::Ref<const Eigen::VectorXd>& u,
                                        const Eigen::Ref<const Eigen::VectorXd>& v) {
  const Eigen::Index n = q.size();
  if (n < 1 || k.size() != n || r.size() != n || u.size() != n || v.size() != n)
    throw InvalidArgument("r", format_integer(r.size()) + " entries", "q, k, r, u and v need the same size >= 1");
  // AC = (q + u)·k = (a) + (c);  BD = (q + v)·r = (b) + (d).
  return {q.dot(k), q.dot(r), u.dot(k), v.dot(r), static_cast<double>(n)};
}

TransformerXlMaps transformer_xl_term_maps(long long length, long long dim, long long clamp_len, std::uint64_t seed) {
  require_length("length", length);
  require_even_dim("dim", dim, "Transformer-XL's sinusoid");
  require_in_range("dim", dim, 2, kMaxMapDim);
  check_table_budget("Transformer-XL term maps", length, 4 * length, sizeof(double));
  const MatrixD q = seeded_matrix(length, dim, mix_seed(seed, 1));
  const MatrixD k = seeded_matrix(length, dim, mix_seed(seed, 2));
  const Eigen::VectorXd u = seeded_normal(dim, mix_seed(seed, 3));
  const Eigen::VectorXd v = seeded_normal(dim, mix_seed(seed, 4));
  const MatrixD w_r = seeded_matrix(dim, dim, mix_seed(seed, 5), 1.0 / std::sqrt(static_cast<double>(dim)));
  // r_n = W_k,R R_n for every distance n < length (clamped as the model clamps).
  MatrixD r(length, dim);
  for (long long n = 0; n < length; ++n) r.row(n) = (w_r * transformer_xl_r(n, dim, clamp_len)).transpose();
  TransformerXlMaps maps;
  for (TableD* t : {&maps.a, &maps.b, &maps.c, &maps.d}) *t = TableD::Zero(length, length);
  const double scale = 1.0 / std::sqrt(static_cast<double>(dim));
  for (long long i = 0; i < length; ++i) {
    for (long long j = 0; j <= i; ++j) {  // j > i is masked: left 0
      const TransformerXlTerms t = transformer_xl_terms(q.row(i).transpose(), k.row(j).transpose(),
                                                        r.row(i - j).transpose(), u, v);
      maps.a(i, j) = t.a * scale;
      maps.b(i, j) = t.b * scale;
      maps.c(i, j) = t.c * scale;
      maps.d(i, j) = t.d * scale;
    }
  }
  return maps;
}

}  // namespace pe
