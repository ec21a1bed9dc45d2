#pragma once
// Integer arrays for bucket indices and relative positions (T5, DeBERTa, BERT's relative
// keys): one entry per relative position, or a query × key table of them.
#include "pe/relative/module_guard.hpp"
#include <cstdint>

#include <Eigen/Core>

namespace pe {

// One entry per relative position (64-bit: relative positions reach ±kMaxLength).
using BucketArray = Eigen::Array<long long, Eigen::Dynamic, 1>;
// Query rows × key columns (row-major like TableF, so a query's row is contiguous); 32-bit
// entries keep an L × L table at half the size of 64-bit ones (buckets and DeBERTa's
// relative positions of one table are < 2^31 in magnitude for every L the budget allows).
using BucketTable = Eigen::Array<std::int32_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

}  // namespace pe
