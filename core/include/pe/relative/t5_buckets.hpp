#pragma once
// T5's bucketed relative positions (Raffel et al. 2020, §2.1), exactly as Hugging Face
// transformers computes them: models/t5/modeling_t5.py, T5Attention._relative_position_bucket
// and compute_bias. The same function serves T5, Flan-T5, mT5, UMT5, LongT5 and the T5
// text encoders of FLUX and Stable Diffusion 3.
//
//   relative_position = key − query            (memory_position − context_position)
//   bidirectional (encoder, the default; `causal` = false):
//       half = num_buckets / 2 (integer division); keys after the query (relative_position > 0)
//       get bucket half + b(|relative_position|), all others b(|relative_position|), where b
//       is computed with half buckets;
//   causal (decoder; `causal` = true): every key after the query is bucket 0, a key n tokens
//       before it gets b(n), computed with all num_buckets.
//   b(n) with N buckets: max_exact = N / 2; n < max_exact: n itself (one bucket per distance);
//       otherwise min(N − 1, max_exact + trunc( log(float(n) / max_exact)
//                                             / log(max_distance / max_exact) · (N − max_exact) )).
//
// Exactness: the reference evaluates the log branch in float32 (relative_position.float(),
// torch.log in float32, the divisor math.log(...) is a double rounded to float32 when the
// tensor is divided by it, each operation rounded to float32 left to right) and casts with
// .to(torch.long), which truncates toward zero. Those roundings decide the buckets of
// distances where the real-valued expression is an exact integer (t5-base, bidirectional:
// 16, 32 and 64 fall into buckets 10, 12 and 14), so t5_relative_bucket does the same
// float32 operations in the same order.
//
// Parameters that break the reference are refused (InvalidArgument naming the parameter):
//   num_buckets: the log branch divides by max_exact, so max_exact >= 1: num_buckets >= 4
//       bidirectional ((num_buckets / 2) / 2 >= 1), >= 2 causal; at most kMaxT5Buckets.
//   max_distance: log(max_distance / max_exact) is 0 for max_distance = max_exact (the
//       reference divides by zero: NaN / ±inf buckets) and negative below (buckets would
//       fall with distance and go negative, an index error in the bias embedding), so
//       max_distance > max_exact, i.e. > num_buckets / 4 bidirectional (integer division,
//       as (num_buckets / 2) / 2) and > num_buckets / 2 causal; at most kMaxLength.
#include "pe/relative/module_guard.hpp"
#include <cstdint>
#include <vector>

#include "pe/base/types.hpp"
#include "pe/relative/bucket_types.hpp"

namespace pe {

inline constexpr long long kMaxT5Buckets = 65536;

// T5's defaults (T5Config: relative_attention_num_buckets 32, relative_attention_max_distance
// 128; old t5-base configs lack the latter and get the class default 128). `causal` is
// "not bidirectional": transformers passes bidirectional = not is_decoder.
struct T5BucketParams {
  long long num_buckets = 32;
  long long max_distance = 128;
  bool causal = false;
  bool operator==(const T5BucketParams&) const = default;
};

// Throws InvalidArgument naming num_buckets or max_distance with the allowed range above.
void require_t5_bucket_params(const T5BucketParams& params);

// The reference's max_exact for these parameters: (num_buckets / 2) / 2 bidirectional,
// num_buckets / 2 causal. The first max_exact distances before the query get a bucket each.
long long t5_max_exact(const T5BucketParams& params) noexcept;

// Bucket of one (query, key) pair, relative_position = key − query; 0 ... num_buckets − 1.
// Validates params; |relative_position| <= kMaxLength.
long long t5_relative_bucket(long long relative_position, const T5BucketParams& params);

// The buckets of relative positions −(length − 1) ... length − 1 (key − query), in that
// order: what `pe-viz dump --encoding t5` prints. length 1 ... kMaxLength (budget-checked).
struct T5BucketRow {
  BucketArray relative_position;  // −(length − 1) ... length − 1
  BucketArray bucket;             // same size
};
T5BucketRow t5_bucket_row(long long length, const T5BucketParams& params);

// length × length buckets, row = query, column = key (what compute_bias looks up). Budget-checked.
BucketTable t5_bucket_matrix(long long length, const T5BucketParams& params);

// Which relative positions (key − query) share a bucket: for every bucket 0 ... num_buckets − 1
// (in order) the closed range [first, last] of relative positions mapping to it, open-ended
// where it reaches to −∞ or +∞, or empty: bidirectional, bucket num_buckets / 2 is never
// used (a key after the query has |relative_position| >= 1) and an odd num_buckets never
// uses its last bucket; a max_distance close to max_exact makes the log branch skip
// buckets. Found by bisection (buckets are monotone in |relative_position|),
// so max_distance up to kMaxLength costs O(num_buckets · log max_distance).
struct T5BucketSpan {
  long long bucket = 0;
  bool empty = false;
  long long first = 0;           // smallest relative position in the bucket (if !unbounded_below)
  long long last = 0;            // largest (if !unbounded_above)
  bool unbounded_below = false;  // the bucket holds every relative position <= last
  bool unbounded_above = false;  // the bucket holds every relative position >= first
  // Distances in the bucket: last − first + 1; −1 when unbounded; 0 when empty.
  long long count() const noexcept;
};
std::vector<T5BucketSpan> t5_bucket_spans(const T5BucketParams& params);

// Distances (|key − query|, for keys before the query) at which a new bucket starts: the
// first distance of each bucket that keys before the query use, ascending (0, 1, 2, ...,
// max_exact, then the log buckets' first distances). Bidirectional mode uses the same edges
// for keys after the query, except that distance 0 belongs to the "before" half.
std::vector<long long> t5_bucket_edges(const T5BucketParams& params);

}  // namespace pe
