#pragma once
// Learned absolute position embeddings (BERT, GPT-2): a max_len × d lookup table, here
// seeded-random N(0, sigma) as at initialisation. It has no row for position >= max_len,
// which is why such models cannot run past their training length.
#include "pe/encodings/module_guard.hpp"
#include <cstdint>
#include "pe/base/types.hpp"

namespace pe {

class PositionOutOfRange : public std::out_of_range {
 public:
  PositionOutOfRange(long long position, long long max_len);
  long long position() const noexcept { return position_; }
  long long max_len() const noexcept { return max_len_; }

 private:
  long long position_, max_len_;
};

// `count` deterministic N(0, sigma) samples: std::mt19937_64(seed) + Box–Muller written out
// here (std::normal_distribution differs between standard libraries, so seeded pictures
// would differ between platforms). Throws InvalidArgument for count < 0 or sigma <= 0.
Eigen::VectorXd seeded_normal(long long count, std::uint64_t seed, double sigma = 1.0);
// rows × cols of seeded_normal(rows·cols, seed, sigma), filled column by column.
MatrixD seeded_matrix(long long rows, long long cols, std::uint64_t seed, double sigma = 1.0);
// SplitMix64's finaliser (Steele et al. 2014): a well-mixed seed for sub-stream `stream`
// of one user seed, so the random vectors, tables and projections of a view are independent.
std::uint64_t mix_seed(std::uint64_t seed, std::uint64_t stream);

class LearnedEmbedding {
 public:
  // Throws InvalidArgument for max_len < 1, dim < 1, sigma <= 0 or a table over budget.
  LearnedEmbedding(long long max_len, long long dim, double sigma = 0.02, std::uint64_t seed = 0);

  long long max_len() const noexcept { return table_.rows(); }
  long long dim() const noexcept { return table_.cols(); }
  double sigma() const noexcept { return sigma_; }
  long long parameter_count() const noexcept { return table_.size(); }
  const TableF& table() const noexcept { return table_; }

  // Row for one position; throws PositionOutOfRange when position < 0 or >= max_len.
  Eigen::VectorXf at(long long position) const;
  // Rows first_position ... first_position+length-1; throws PositionOutOfRange if any is missing.
  TableF rows(long long first_position, long long length) const;

 private:
  TableF table_;
  double sigma_;
};

}  // namespace pe
