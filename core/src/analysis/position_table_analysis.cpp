// Cosine similarity, principal components and per-dimension spectra of a learned position
// table (position_table_analysis.hpp). Work is in double from the float table; the P × P
// similarity is filled in blocks of rows so no P × P double temporary is ever held.
#include "pe/analysis/position_table_analysis.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "pe/base/errors.hpp"

namespace pe {

namespace {

constexpr long long kMaxEigenSide = 8192;
constexpr long long kRowBlock = 256;        // similarity rows per product
constexpr long long kFrequencyBlock = 64;   // DFT frequencies per product

void require_table(const Eigen::Ref<const MatrixF>& table) {
  if (table.rows() < 1 || table.cols() < 1)
    throw InvalidArgument("table", std::to_string(table.rows()) + " × " + std::to_string(table.cols()),
                          "at least one position and one dimension");
}

MatrixD as_double(const Eigen::Ref<const MatrixF>& table) { return table.cast<double>(); }

// +1 or −1: scores rising with position, else the largest |score| positive.
double orientation(const Eigen::Ref<const Eigen::VectorXd>& score) {
  const double centre = 0.5 * double(score.size() - 1);
  double trend = 0.0, scale = 0.0;
  for (Eigen::Index p = 0; p < score.size(); ++p) {
    trend += (double(p) - centre) * score(p);
    scale += std::abs((double(p) - centre) * score(p));
  }
  if (std::abs(trend) > 1e-9 * scale) return trend > 0 ? 1.0 : -1.0;
  Eigen::Index at = 0;
  for (Eigen::Index p = 1; p < score.size(); ++p)
    if (std::abs(score(p)) > std::abs(score(at))) at = p;
  return score.size() == 0 || score(at) >= 0 ? 1.0 : -1.0;
}

}  // namespace

TableF position_cosine_similarity(const Eigen::Ref<const MatrixF>& table) {
  require_table(table);
  const long long P = table.rows();
  check_table_budget("position cosine similarity (positions × positions)", P, P, sizeof(float));
  MatrixD unit = as_double(table);
  Eigen::VectorXd norm = unit.rowwise().norm();
  for (long long p = 0; p < P; ++p)
    if (norm(p) > 0) unit.row(p) /= norm(p);
  TableF out(P, P);
  for (long long first = 0; first < P; first += kRowBlock) {
    const long long n = std::min(kRowBlock, P - first);
    out.middleRows(first, n) = (unit.middleRows(first, n) * unit.transpose()).cast<float>().array();
  }
  // The diagonal is 1 by definition (the product leaves it within rounding of 1).
  for (long long p = 0; p < P; ++p) out(p, p) = norm(p) > 0 ? 1.0f : 0.0f;
  return out;
}

Eigen::VectorXd mean_similarity_by_distance(const TableF& similarity) {
  const long long P = similarity.rows();
  if (P < 1 || similarity.cols() != P)
    throw InvalidArgument("similarity", std::to_string(similarity.rows()) + " × " + std::to_string(similarity.cols()),
                          "a square matrix of at least one position");
  Eigen::VectorXd out = Eigen::VectorXd::Zero(P);
  for (long long p = 0; p < P; ++p)
    for (long long q = p; q < P; ++q) out(q - p) += double(similarity(p, q));
  for (long long d = 0; d < P; ++d) out(d) /= double(P - d);
  return out;
}

PositionComponents position_principal_components(const Eigen::Ref<const MatrixF>& table, long long components) {
  require_table(table);
  const long long P = table.rows(), d = table.cols();
  if (P < 2) throw InvalidArgument("positions", std::to_string(P), "at least 2 rows to have a variance");
  require_at_least("components", components, 1);
  const long long side = std::min(P, d);
  require_in_range("min(positions, dims)", side, 1, kMaxEigenSide);
  const long long k = std::min(components, side);

  PositionComponents out;
  MatrixD x = as_double(table);
  out.mean = x.colwise().mean().transpose();
  x.rowwise() -= out.mean.transpose();
  const double denominator = double(P - 1);
  out.total_variance = x.squaredNorm() / denominator;

  // The smaller Gram matrix: X̃ᵀX̃ (d × d) has the components as eigenvectors; X̃X̃ᵀ (P × P)
  // has the scores' directions u_c, and then loading_c = X̃ᵀu_c / √λ_c.
  const bool by_dims = d <= P;
  const Eigen::MatrixXd gram = by_dims ? Eigen::MatrixXd(x.transpose() * x) : Eigen::MatrixXd(x * x.transpose());
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(gram);
  out.variance.resize(k);
  out.loadings.resize(d, k);
  for (long long c = 0; c < k; ++c) {
    const Eigen::Index at = side - 1 - c;  // eigenvalues come ascending
    const double lambda = std::max(0.0, solver.eigenvalues()(at));
    out.variance(c) = lambda / denominator;
    if (by_dims) {
      out.loadings.col(c) = solver.eigenvectors().col(at);
    } else {
      const Eigen::VectorXd v = x.transpose() * solver.eigenvectors().col(at);
      const double n = v.norm();
      out.loadings.col(c) = n > 0 ? Eigen::VectorXd(v / n) : Eigen::VectorXd::Zero(d);
    }
  }
  out.scores = x * out.loadings;
  for (long long c = 0; c < k; ++c) {
    const double s = orientation(out.scores.col(c));
    out.scores.col(c) *= s;
    out.loadings.col(c) *= s;
  }
  out.variance_share = out.total_variance > 0 ? Eigen::VectorXd(out.variance / out.total_variance) : Eigen::VectorXd::Zero(k);
  return out;
}

DimensionSpectra dimension_spectra(const Eigen::Ref<const MatrixF>& table, long long max_frequencies) {
  require_table(table);
  require_in_range("max_frequencies", max_frequencies, 2, 65536);
  const long long P = table.rows(), d = table.cols();
  const long long bins = P / 2 + 1;
  DimensionSpectra out;
  out.exact_bins = bins <= max_frequencies;
  const long long F = out.exact_bins ? bins : max_frequencies;
  check_table_budget("dimension spectra (frequencies × dims)", F, d, sizeof(double));
  out.frequency.resize(F);
  for (long long k = 0; k < F; ++k) out.frequency(k) = out.exact_bins ? double(k) / double(P) : 0.5 * double(k) / double(F - 1);

  MatrixD x = as_double(table);
  out.mean = x.colwise().mean().transpose();
  x.rowwise() -= out.mean.transpose();
  out.amplitude.resize(F, d);
  constexpr double kTwoPi = 2.0 * std::numbers::pi;
  MatrixD c, s;
  for (long long first = 0; first < F; first += kFrequencyBlock) {
    const long long n = std::min(kFrequencyBlock, F - first);
    c.resize(n, P);
    s.resize(n, P);
    for (long long i = 0; i < n; ++i) {
      const long long k = first + i;
      for (long long p = 0; p < P; ++p) {
        // The phase f·p in turns, reduced before the multiply by 2π: exact for bins
        // ((k·p) mod P) / P, so large p lose nothing to the size of the angle.
        const double turns = out.exact_bins ? double((k * p) % P) / double(P)
                                            : out.frequency(k) * double(p) - std::floor(out.frequency(k) * double(p));
        c(i, p) = std::cos(kTwoPi * turns);
        s(i, p) = std::sin(kTwoPi * turns);
      }
    }
    const MatrixD re = c * x, im = s * x;
    out.amplitude.middleRows(first, n) = ((re.array().square() + im.array().square()).sqrt() * (2.0 / double(P))).matrix();
  }

  out.dominant_frequency = Eigen::VectorXd::Zero(d);
  const double largest = x.cwiseAbs().maxCoeff();
  for (long long j = 0; j < d; ++j) {
    long long best = 0;
    for (long long k = 1; k < F; ++k)
      if (out.amplitude(k, j) > (best == 0 ? 0.0 : out.amplitude(best, j))) best = k;
    // A constant column leaves only rounding noise once its mean is removed.
    if (best > 0 && out.amplitude(best, j) > 1e-12 * std::max(largest, 1e-300)) out.dominant_frequency(j) = out.frequency(best);
  }
  return out;
}

}  // namespace pe
