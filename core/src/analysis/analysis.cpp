// Analyses on top of the encodings: RoPE relative scores (RoFormer §3.4), the long-term
// decay bound (RoFormer §3.4.3), attention patterns per method, wavelengths.
#include "pe/analysis/analysis.hpp"

#include "pe/encodings/simd_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "pe/encodings/alibi.hpp"
#include "pe/base/errors.hpp"
#include "pe/base/parallel.hpp"
#include "pe/encodings/learned.hpp"
#include "pe/encodings/sinusoidal.hpp"

namespace pe {

namespace {

// Work cap for the seeded-vector averages, so a slider cannot freeze the GUI for minutes.
inline constexpr long long kMaxSampleEntries = 100'000'000;

void require_finite_array(const char* parameter, const double* data, Eigen::Index count) {
  for (Eigen::Index j = 0; j < count; ++j) {
    if (!std::isfinite(data[j])) {
      throw InvalidArgument(std::string(parameter) + "[" + std::to_string(j) + "]", format_double(data[j]),
                            "entries must be finite numbers");
    }
  }
}

void require_matching_coefficients(const RelativeScoreCoefficients& c, const Eigen::ArrayXd& inv_freq) {
  require_frequencies("inv_freq", inv_freq);
  if (c.a.size() != inv_freq.size() || c.b.size() != inv_freq.size()) {
    throw InvalidArgument("coefficients size", std::to_string(c.a.size()) + " and " + std::to_string(c.b.size()),
                          "needs one a and one b per frequency (" + std::to_string(inv_freq.size()) + ")");
  }
  require_finite_array("a", c.a.data(), c.a.size());
  require_finite_array("b", c.b.data(), c.b.size());
  require_finite("passthrough", c.passthrough);
}

// Deltas a thread must have before a second one helps: a delta costs d/2 sines and cosines,
// ~1 µs at d = 1024; a thread's start ~50 µs.
constexpr long long kDeltasPerThread = 128;

// Spacing h if deltas are an arithmetic progression (to a few ulps, as LinSpaced or
// d0 + j·h produce), else NaN.
double uniform_spacing(const Eigen::Ref<const Eigen::ArrayXd>& deltas) {
  const Eigen::Index n = deltas.size();
  if (n < 3) return std::numeric_limits<double>::quiet_NaN();
  const double d0 = deltas[0];
  const double h = (deltas[n - 1] - d0) / static_cast<double>(n - 1);
  const double scale = std::max({std::abs(d0), std::abs(deltas[n - 1]), std::abs(h)});
  const double tolerance = 64.0 * std::numeric_limits<double>::epsilon() * scale;
  for (Eigen::Index j = 1; j < n - 1; ++j) {
    if (!(std::abs(deltas[j] - (d0 + static_cast<double>(j) * h)) <= tolerance)) {
      return std::numeric_limits<double>::quiet_NaN();
    }
  }
  return h;
}

// Calls visit(j, cos(Δ_j θ), sin(Δ_j θ)) (arrays over frequencies) for every delta. Evenly
// spaced deltas use the angle-addition recurrence, anchored exactly at deltas[j] every
// kAnchorInterval steps; anything else pays a vectorized sine and cosine per entry.
template <class Visit>
void for_each_delta(const Eigen::ArrayXd& inv_freq, const Eigen::Ref<const Eigen::ArrayXd>& deltas, Visit visit) {
  const double h = uniform_spacing(deltas);
  if (std::isfinite(h)) {
    PhasorRecurrence phasors(inv_freq, h);
    for (Eigen::Index j = 0; j < deltas.size(); ++j) {
      if (j % PhasorRecurrence::kAnchorInterval == 0) {
        phasors.anchor(deltas[j]);
      } else {
        phasors.advance();
      }
      visit(j, phasors.cos(), phasors.sin());
    }
    return;
  }
  // Each delta on its own: two threads take half the deltas each (pe/base/parallel.hpp).
  const simd::Kernels& k = simd::kernels();
  in_two_parts(deltas.size(), kDeltasPerThread, 1, [&](long long first, long long last) {
    Eigen::ArrayXd angle(inv_freq.size()), cs(inv_freq.size()), sn(inv_freq.size());
    for (Eigen::Index j = first; j < last; ++j) {
      angle = deltas[j] * inv_freq;
      k.sincos(angle.data(), sn.data(), cs.data(), angle.size());  // vectorized (pe/encodings/simd.hpp)
      visit(j, cs, sn);
    }
  });
}

}  // namespace

RelativeScoreCoefficients relative_score_coefficients(const Eigen::Ref<const Eigen::VectorXd>& q,
                                                      const Eigen::Ref<const Eigen::VectorXd>& k,
                                                      long long rotary_pairs, PairConvention convention) {
  if (q.size() != k.size()) {
    throw InvalidArgument("k size", std::to_string(k.size()), "must equal q size (" + std::to_string(q.size()) + ")");
  }
  if (q.size() < 2) throw InvalidArgument("q size", std::to_string(q.size()), "needs at least one pair (2 dims)");
  require_in_range("rotary_pairs", rotary_pairs, 1, q.size() / 2);
  require_finite_array("q", q.data(), q.size());
  require_finite_array("k", k.data(), k.size());

  RelativeScoreCoefficients c;
  c.a.resize(rotary_pairs);
  c.b.resize(rotary_pairs);
  for (long long i = 0; i < rotary_pairs; ++i) {
    const auto [d1, d2] = pair_dims(convention, 2 * rotary_pairs, i);
    const double u1 = q[d1], u2 = q[d2], v1 = k[d1], v2 = k[d2];
    // ⟨R(α)u, R(β)v⟩ = uᵀR(β−α)v = (u1v1 + u2v2)·cos((β−α)) + (u2v1 − u1v2)·sin((β−α)).
    c.a[i] = u1 * v1 + u2 * v2;
    c.b[i] = u2 * v1 - u1 * v2;
  }
  const long long rotary_dim = 2 * rotary_pairs;
  const long long tail = q.size() - rotary_dim;
  c.passthrough = tail > 0 ? q.tail(tail).dot(k.tail(tail)) : 0.0;
  return c;
}

double relative_score(const RelativeScoreCoefficients& c, const Eigen::ArrayXd& inv_freq, double delta) {
  require_matching_coefficients(c, inv_freq);
  require_finite("delta", delta);
  const Eigen::ArrayXd angle = delta * inv_freq;
  return c.passthrough + (c.a * angle.cos() + c.b * angle.sin()).sum();
}

Eigen::ArrayXd relative_score_curve(const RelativeScoreCoefficients& c, const Eigen::ArrayXd& inv_freq,
                                    const Eigen::Ref<const Eigen::ArrayXd>& deltas) {
  require_matching_coefficients(c, inv_freq);
  require_finite_array("deltas", deltas.data(), deltas.size());
  // The same visits as for_each_delta, with the vector kernels (pe/encodings/simd.hpp) for the
  // recurrence, the sines and cosines and the sum.
  const simd::Kernels& k = simd::kernels();
  const long long n = inv_freq.size();
  Eigen::ArrayXd out(deltas.size());
  const double h = uniform_spacing(deltas);
  if (std::isfinite(h)) {
    // kChains interleaved recurrences (chain m: deltas j0 + m, j0 + m + C, …, stepping by C·h)
    // over runs of kAnchorInterval deltas, each chain anchored exactly at the run's start:
    // the kernel then vectorizes across the chains and needs no horizontal sums.
    constexpr long long C = simd::kChains;
    const Eigen::ArrayXd step = (C * h) * inv_freq;
    Eigen::ArrayXd hc(n), hs(n), angle(n), cs(n), sn(n);
    k.sincos(step.data(), hs.data(), hc.data(), n);
    std::vector<double> c8(std::size_t(n * C)), s8(c8.size()), run(std::size_t{PhasorRecurrence::kAnchorInterval});
    for (Eigen::Index j = 0; j < deltas.size(); j += PhasorRecurrence::kAnchorInterval) {
      const long long steps = std::min<long long>(PhasorRecurrence::kAnchorInterval, deltas.size() - j);
      for (long long m = 0; m < C; ++m) {
        angle = (deltas[j] + double(m) * h) * inv_freq;
        k.sincos(angle.data(), sn.data(), cs.data(), n);
        for (long long q = 0; q < n; ++q) {
          c8[std::size_t(q * C + m)] = cs[q];
          s8[std::size_t(q * C + m)] = sn[q];
        }
      }
      const long long groups = (steps + C - 1) / C;
      k.score_chains(n, groups, c8.data(), s8.data(), hc.data(), hs.data(), c.a.data(), c.b.data(), c.passthrough, run.data());
      std::copy(run.begin(), run.begin() + steps, out.data() + j);
    }
    return out;
  }
  // Any deltas: the angles of a block of deltas at once, one sincos pass, one sum per delta;
  // two threads take half the blocks each.
  constexpr Eigen::Index kBlock = 16;
  in_two_parts(deltas.size(), kDeltasPerThread, kBlock, [&](long long first, long long last) {
    Eigen::ArrayXXd angle(n, kBlock), cs(n, kBlock), sn(n, kBlock);  // column b: delta j + b
    for (Eigen::Index j = first; j < last; j += kBlock) {
      const Eigen::Index m = std::min<Eigen::Index>(kBlock, last - j);
      for (Eigen::Index b = 0; b < m; ++b) angle.col(b) = deltas[j + b] * inv_freq;
      k.sincos(angle.data(), sn.data(), cs.data(), n * m);
      for (Eigen::Index b = 0; b < m; ++b)
        out[j + b] = c.passthrough + k.dot2(n, c.a.data(), cs.col(b).data(), c.b.data(), sn.col(b).data());
    }
  });
  return out;
}

RelativeScoreCoefficients choice_coefficients(VectorChoice choice, long long pairs, std::uint64_t seed,
                                              long long samples) {
  require_in_range("pairs", pairs, 1, kMaxDim / 2);
  const long long dim = 2 * pairs;
  require_in_range("samples", samples, 1, kMaxSampleEntries / dim);

  const bool identical = choice == VectorChoice::Identical || choice == VectorChoice::MeanOfIdentical;
  const bool averaged = choice == VectorChoice::MeanOfRandomPairs || choice == VectorChoice::MeanOfIdentical;
  const long long count = averaged ? samples : 1;
  // s(Δ) is linear in (a, b), so the mean curve is the curve of the mean coefficients.
  RelativeScoreCoefficients mean;
  mean.a = Eigen::ArrayXd::Zero(pairs);
  mean.b = Eigen::ArrayXd::Zero(pairs);
  for (long long j = 0; j < count; ++j) {
    const Eigen::VectorXd v = seeded_normal(2 * dim, mix_seed(seed, static_cast<std::uint64_t>(j)));
    const auto q = v.head(dim);
    const auto k = identical ? v.head(dim) : v.tail(dim);
    const RelativeScoreCoefficients one = relative_score_coefficients(q, k, pairs, PairConvention::Interleaved);
    mean.a += one.a;
    mean.b += one.b;
  }
  mean.a /= static_cast<double>(count);
  mean.b /= static_cast<double>(count);
  return mean;
}

Eigen::ArrayXd relative_score_curve(VectorChoice choice, const Eigen::ArrayXd& inv_freq,
                                    const Eigen::Ref<const Eigen::ArrayXd>& deltas, std::uint64_t seed,
                                    long long samples) {
  require_frequencies("inv_freq", inv_freq);
  return relative_score_curve(choice_coefficients(choice, inv_freq.size(), seed, samples), inv_freq, deltas);
}

Eigen::ArrayXXd relative_score_curves(const std::vector<RelativeScoreCoefficients>& sets, const Eigen::ArrayXd& inv_freq,
                                      const Eigen::Ref<const Eigen::ArrayXd>& deltas, bool decay_bound) {
  require_frequencies("inv_freq", inv_freq);
  for (const auto& c : sets) require_matching_coefficients(c, inv_freq);
  require_finite_array("deltas", deltas.data(), deltas.size());
  const Eigen::Index columns = Eigen::Index(sets.size()) + (decay_bound ? 1 : 0);
  Eigen::ArrayXXd out(deltas.size(), columns);
  const Eigen::Index n = inv_freq.size();
  for_each_delta(inv_freq, deltas, [&](Eigen::Index j, const Eigen::ArrayXd& cs, const Eigen::ArrayXd& sn) {
    for (std::size_t c = 0; c < sets.size(); ++c)
      out(j, Eigen::Index(c)) = sets[c].passthrough + simd::kernels().dot2(n, sets[c].a.data(), cs.data(), sets[c].b.data(), sn.data());
    if (decay_bound) {
      // S_m = Σ_{i<m} e^{iΔθ_i} as a running complex sum; the bound averages |S_m|, m = 1 ... d/2.
      double re = 0.0, im = 0.0, total = 0.0;
      for (Eigen::Index i = 0; i < n; ++i) {
        re += cs[i];
        im += sn[i];
        // |S_m| <= d/2, so the plain formula cannot overflow; std::hypot's care costs ~5×.
        total += std::sqrt(re * re + im * im);
      }
      out(j, columns - 1) = total / static_cast<double>(n);
    }
  });
  return out;
}

Eigen::ArrayXd long_term_decay_bound(const Eigen::ArrayXd& inv_freq, const Eigen::Ref<const Eigen::ArrayXd>& deltas) {
  // The bound is the extra column of relative_score_curves, with no score curves.
  return relative_score_curves({}, inv_freq, deltas, /*decay_bound=*/true).col(0);
}

const char* to_string(AttentionMethod m) {
  switch (m) {
    case AttentionMethod::NoPosition: return "none";
    case AttentionMethod::Sinusoidal: return "sinusoidal";
    case AttentionMethod::Learned: return "learned";
    case AttentionMethod::Rope: return "rope";
    case AttentionMethod::Alibi: return "alibi";
    case AttentionMethod::T5Bias: return "t5";
    case AttentionMethod::Kerple: return "kerple";
    case AttentionMethod::Xpos: return "xpos";
  }
  return "unknown";
}

void require_attention_inputs(AttentionMethod method, long long dim, double theta, double alibi_slope,
                              double learned_sigma) {
  if (method == AttentionMethod::Rope || method == AttentionMethod::Xpos) {
    require_even_dim("dim", dim, method == AttentionMethod::Rope ? "RoPE" : "xPos");
  } else {
    require_dim("dim", dim);
  }
  require_theta("theta", theta);
  require_in_range("alibi_slope", alibi_slope, 0.0, std::numeric_limits<double>::max());
  require_positive("learned_sigma", learned_sigma);
}

namespace {

// xPos (torchscale XPOS): rotate every pair as RoPE with θ = 10000, interleaved, then scale pair i
// of the query at m by ζ_i^(m/scale_base) and of the key at n by ζ_i^(−n/scale_base).
void apply_xpos(MatrixD& q, MatrixD& k, const AttentionParams& params) {
  const long long length = q.rows(), pairs = q.cols() / 2;
  if (params.xpos_zeta.size() != pairs)
    throw InvalidArgument("xpos_zeta", format_integer(params.xpos_zeta.size()) + " entries",
                          "one ζ per pair: " + format_integer(pairs) + " (pe/relative's xpos_zeta)");
  if (!std::isfinite(params.xpos_scale_base) || !(params.xpos_scale_base > 0.0))
    throw InvalidArgument("scale_base", format_double(params.xpos_scale_base), "a finite number > 0");
  const Eigen::ArrayXd positions = Eigen::ArrayXd::LinSpaced(length, 0.0, static_cast<double>(length - 1));
  const Eigen::ArrayXd inv_freq = inverse_frequencies(q.cols(), 10000.0);
  q = apply_rope(q, positions, inv_freq, PairConvention::Interleaved);
  k = apply_rope(k, positions, inv_freq, PairConvention::Interleaved);
  for (long long m = 0; m < length; ++m)
    for (long long i = 0; i < pairs; ++i) {
      const double up = std::pow(params.xpos_zeta[i], static_cast<double>(m) / params.xpos_scale_base);
      q(m, 2 * i) *= up;
      q(m, 2 * i + 1) *= up;
      k(m, 2 * i) /= up;
      k(m, 2 * i + 1) /= up;
    }
}

}  // namespace

namespace {

void require_attention_shape(long long length, long long dim) {
  require_length("length", length);
  require_dim("dim", dim);
  // Every working matrix is checked before anything is allocated.
  check_table_budget("attention scores", length, length, sizeof(double));
  check_table_budget("attention token matrix", length, dim, 3 * sizeof(double));
  check_table_budget("attention projections", dim, dim, 2 * sizeof(double));
}

}  // namespace

AttentionTokens attention_tokens(long long length, long long dim, std::uint64_t seed) {
  require_attention_shape(length, dim);
  AttentionTokens t;
  t.length = length;
  t.dim = dim;
  t.seed = seed;
  // Token content X ~ N(0, 1); projections ~ N(0, 1/d) so Q, K entries stay ~ N(0, 1).
  t.x = seeded_matrix(length, dim, mix_seed(seed, 0), 1.0);
  const double w_sigma = 1.0 / std::sqrt(static_cast<double>(dim));
  t.wq = seeded_matrix(dim, dim, mix_seed(seed, 1), w_sigma);
  t.wk = seeded_matrix(dim, dim, mix_seed(seed, 2), w_sigma);
  t.q = t.x * t.wq;
  t.k = t.x * t.wk;
  return t;
}

TableF attention_pattern(AttentionMethod method, const AttentionParams& params) {
  require_attention_shape(params.length, params.dim);
  require_attention_inputs(method, params.dim, params.theta, params.alibi_slope, params.learned_sigma);
  return attention_pattern(method, params, attention_tokens(params.length, params.dim, params.seed));
}

TableF attention_pattern(AttentionMethod method, const AttentionParams& params, const AttentionTokens& tokens) {
  const long long length = params.length, dim = params.dim;
  require_attention_shape(length, dim);
  require_attention_inputs(method, dim, params.theta, params.alibi_slope, params.learned_sigma);
  if (tokens.length != length || tokens.dim != dim || tokens.seed != params.seed)
    throw InvalidArgument("tokens", "for length " + format_integer(tokens.length) + ", dim " + format_integer(tokens.dim),
                          "the tokens of length " + format_integer(length) + ", dim " + format_integer(dim) + " and this seed");

  // Additive methods add their table to X before the projections (as the models do).
  MatrixD q, k;
  if (method == AttentionMethod::Sinusoidal || method == AttentionMethod::Learned) {
    MatrixD x = tokens.x;
    if (method == AttentionMethod::Sinusoidal) {
      x += sinusoidal_table(length, dim, params.theta).cast<double>().matrix();
    } else {
      const LearnedEmbedding learned(length, dim, params.learned_sigma, mix_seed(params.seed, 3));
      x += learned.table().cast<double>().matrix();
    }
    q = x * tokens.wq;
    k = x * tokens.wk;
  } else {
    q = tokens.q;
    k = tokens.k;
  }
  if (method == AttentionMethod::Rope) {
    const Eigen::ArrayXd positions = Eigen::ArrayXd::LinSpaced(length, 0.0, static_cast<double>(length - 1));
    const Eigen::ArrayXd inv_freq =
        params.rope_inv_freq.size() > 0 ? params.rope_inv_freq : inverse_frequencies(dim, params.theta);
    q = apply_rope(q, positions, inv_freq, params.convention);
    k = apply_rope(k, positions, inv_freq, params.convention);
  }
  if (method == AttentionMethod::Xpos) apply_xpos(q, k, params);
  const MatrixD scores = (q * k.transpose()) / std::sqrt(static_cast<double>(dim));
  const TableD* bias = method == AttentionMethod::T5Bias ? &params.t5_bias : method == AttentionMethod::Kerple ? &params.kerple_bias : nullptr;
  if (bias && (bias->rows() < length || bias->cols() < length))
    throw InvalidArgument(method == AttentionMethod::T5Bias ? "t5_bias" : "kerple_bias",
                          format_integer(bias->rows()) + " × " + format_integer(bias->cols()),
                          "a bias for every (query, key) pair: at least " + format_integer(length) + " × " + format_integer(length));

  TableF out = TableF::Zero(length, length);  // masked (future) entries stay exactly 0
  Eigen::ArrayXd row(length);
  for (long long m = 0; m < length; ++m) {
    double peak = -std::numeric_limits<double>::infinity();
    for (long long n = 0; n <= m; ++n) {
      double v = scores(m, n);
      if (method == AttentionMethod::Alibi) v -= params.alibi_slope * static_cast<double>(m - n);
      if (bias) v += (*bias)(m, n);
      row[n] = v;
      peak = std::max(peak, v);
    }
    // Softmax with the row maximum subtracted so exp never overflows.
    double total = 0.0;
    for (long long n = 0; n <= m; ++n) {
      row[n] = std::exp(row[n] - peak);
      total += row[n];
    }
    for (long long n = 0; n <= m; ++n) out(m, n) = static_cast<float>(row[n] / total);
  }
  return out;
}

Eigen::ArrayXd wavelengths(const Eigen::ArrayXd& inv_freq) {
  require_frequencies("inv_freq", inv_freq);
  // λ_i = 2π/θ_i; a zero frequency never turns: infinite wavelength.
  return (2.0 * std::numbers::pi) / inv_freq;
}

Eigen::ArrayXd full_turns(const Eigen::ArrayXd& inv_freq, long long length) {
  require_frequencies("inv_freq", inv_freq);
  require_length("length", length);
  return static_cast<double>(length) * inv_freq / (2.0 * std::numbers::pi);
}

}  // namespace pe
