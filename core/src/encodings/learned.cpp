// Learned absolute position embeddings (BERT, GPT-2), shown at initialisation: N(0, sigma).
#include "pe/encodings/learned.hpp"

#include <cmath>
#include <numbers>
#include <random>
#include <string>

#include "pe/base/errors.hpp"

namespace pe {

namespace {

std::string position_message(long long position, long long max_len) {
  const std::string rows = "a learned table has no row for it (positions 0 ... " + std::to_string(max_len - 1) + ")";
  if (position < 0) return "position " + std::to_string(position) + " is before position 0: " + rows;
  return "position " + std::to_string(position) + " is past max_len " + std::to_string(max_len) + ": " + rows;
}

// Fills `out` with N(0, sigma) by Box–Muller (Box & Muller 1958): two uniforms give two normals.
void fill_normal(float* out_f, double* out_d, long long count, std::uint64_t seed, double sigma) {
  std::mt19937_64 rng(seed);
  // 53 random bits → u in (0, 1]; never 0, so log(u) is finite.
  auto uniform = [&rng] { return (static_cast<double>(rng() >> 11) + 1.0) * 0x1.0p-53; };
  for (long long j = 0; j < count; j += 2) {
    const double radius = sigma * std::sqrt(-2.0 * std::log(uniform()));
    const double angle = 2.0 * std::numbers::pi * uniform();
    const double z0 = radius * std::cos(angle), z1 = radius * std::sin(angle);
    if (out_f) {
      out_f[j] = static_cast<float>(z0);
      if (j + 1 < count) out_f[j + 1] = static_cast<float>(z1);
    } else {
      out_d[j] = z0;
      if (j + 1 < count) out_d[j + 1] = z1;
    }
  }
}

}  // namespace

PositionOutOfRange::PositionOutOfRange(long long position, long long max_len)
    : std::out_of_range(position_message(position, max_len)), position_(position), max_len_(max_len) {}

Eigen::VectorXd seeded_normal(long long count, std::uint64_t seed, double sigma) {
  require_in_range("count", count, 0, kMaxLength);
  require_positive("sigma", sigma);
  check_table_budget("random vector", count, 1, sizeof(double));
  Eigen::VectorXd v(count);
  fill_normal(nullptr, v.data(), count, seed, sigma);
  return v;
}

MatrixD seeded_matrix(long long rows, long long cols, std::uint64_t seed, double sigma) {
  const Eigen::VectorXd v = seeded_normal(rows * cols, seed, sigma);
  return Eigen::Map<const MatrixD>(v.data(), rows, cols);
}

std::uint64_t mix_seed(std::uint64_t seed, std::uint64_t stream) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (stream + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

LearnedEmbedding::LearnedEmbedding(long long max_len, long long dim, double sigma, std::uint64_t seed)
    : sigma_(sigma) {
  require_length("max_len", max_len);
  require_dim("dim", dim);
  require_positive("sigma", sigma);
  check_table_budget("learned position table", max_len, dim, sizeof(float));
  table_.resize(max_len, dim);
  fill_normal(table_.data(), nullptr, table_.size(), seed, sigma);
}

Eigen::VectorXf LearnedEmbedding::at(long long position) const {
  if (position < 0 || position >= max_len()) throw PositionOutOfRange(position, max_len());
  return table_.row(position).transpose().matrix();
}

TableF LearnedEmbedding::rows(long long first_position, long long length) const {
  require_length("length", length);
  if (first_position < 0) throw PositionOutOfRange(first_position, max_len());
  if (first_position >= max_len()) throw PositionOutOfRange(first_position, max_len());
  // Compare without forming first_position + length (could overflow for huge lengths).
  if (length > max_len() - first_position) throw PositionOutOfRange(max_len(), max_len());
  return table_.middleRows(first_position, length);
}

}  // namespace pe
