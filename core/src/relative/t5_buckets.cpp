// T5's relative position buckets: transformers models/t5/modeling_t5.py,
// T5Attention._relative_position_bucket (the formula and its float32 steps are spelled out
// in pe/relative/t5_buckets.hpp).
#include "pe/relative/t5_buckets.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "pe/base/errors.hpp"

namespace pe {

namespace {

// Buckets of one direction (N) and the reference's max_exact for them.
struct DirectionBuckets {
  long long buckets = 0;    // N: num_buckets / 2 bidirectional, num_buckets causal
  long long max_exact = 0;  // N / 2
  long long max_distance = 0;
};

DirectionBuckets direction_buckets(const T5BucketParams& p) noexcept {
  const long long n = p.causal ? p.num_buckets : p.num_buckets / 2;
  return {n, n / 2, p.max_distance};
}

// b(n) for a distance n >= 0, as the reference: n itself below max_exact, else the log branch
// in float32, one rounding per torch operation, left to right:
//   max_exact + (log(float(n) / max_exact) / float(log(max_distance / max_exact)) · (N − max_exact)).long()
// then min(·, N − 1).
long long distance_bucket(long long n, const DirectionBuckets& d) noexcept {
  if (n < d.max_exact) return n;
  const float x = static_cast<float>(n) / static_cast<float>(d.max_exact);
  const float log_x = std::log(x);  // float overload: float32 like torch.log on a float tensor
  // math.log(max_distance / max_exact): Python divides the ints in double and takes a double
  // log; torch rounds that scalar to float32 when it divides the float32 tensor by it.
  const float divisor = static_cast<float>(
      std::log(static_cast<double>(d.max_distance) / static_cast<double>(d.max_exact)));
  const float scaled = log_x / divisor * static_cast<float>(d.buckets - d.max_exact);
  // .to(torch.long) truncates toward zero (scaled >= 0 here). Anything >= N ends in N − 1 after
  // the min, so cap first: the conversion of a huge float is then never out of range.
  const long long whole = scaled >= static_cast<float>(d.buckets) ? d.buckets : static_cast<long long>(scaled);
  return std::min(d.max_exact + whole, d.buckets - 1);
}

long long bucket_unchecked(long long relative_position, const T5BucketParams& p) noexcept {
  const DirectionBuckets d = direction_buckets(p);
  if (p.causal) return distance_bucket(relative_position < 0 ? -relative_position : 0, d);
  const long long offset = relative_position > 0 ? d.buckets : 0;
  return offset + distance_bucket(std::llabs(relative_position), d);
}

// Smallest distance n >= 0 with distance_bucket(n) >= b (b <= N − 1). Buckets are monotone in
// n, and b(max_distance) = N − 1 (the log branch's ratio is 1 up to one float32 rounding, and
// (N − max_exact)·(1 − 2^−23) still truncates to at least N − max_exact − 1), so bisection over
// [max_exact, max_distance] finds it.
long long first_distance_of(long long b, const DirectionBuckets& d) noexcept {
  if (b < d.max_exact) return b;
  long long lo = d.max_exact, hi = d.max_distance;
  while (lo < hi) {
    const long long mid = lo + (hi - lo) / 2;
    if (distance_bucket(mid, d) >= b) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

// first[b] for b = 0 … N − 1, plus first[N] = "never" (−1).
std::vector<long long> first_distances(const DirectionBuckets& d) {
  std::vector<long long> first(static_cast<std::size_t>(d.buckets));
  for (long long b = 0; b < d.buckets; ++b) first[static_cast<std::size_t>(b)] = first_distance_of(b, d);
  return first;
}

std::string direction_text(const T5BucketParams& p) { return p.causal ? "causal" : "bidirectional"; }

}  // namespace

void require_t5_bucket_params(const T5BucketParams& p) {
  const long long minimum = p.causal ? 2 : 4;
  if (p.num_buckets < minimum || p.num_buckets > kMaxT5Buckets) {
    throw InvalidArgument(
        "num_buckets", format_integer(p.num_buckets),
        direction_text(p) + " T5 buckets need num_buckets " + format_integer(minimum) + " ... " +
            format_integer(kMaxT5Buckets) +
            (p.causal ? " (num_buckets / 2 exact buckets, at least 1: the log branch divides by it)"
                      : " (each direction's num_buckets / 2 buckets start with (num_buckets / 2) / 2 exact ones, at "
                        "least 1: the log branch divides by it)"));
  }
  const long long max_exact = t5_max_exact(p);
  if (p.max_distance <= max_exact || p.max_distance > kMaxLength) {
    throw InvalidArgument(
        "max_distance", format_integer(p.max_distance),
        "with num_buckets = " + format_integer(p.num_buckets) + " " + direction_text(p) +
            ", max_distance must be " + format_integer(max_exact + 1) + " ... " + format_integer(kMaxLength) +
            " (more than max_exact = " + (p.causal ? "num_buckets / 2" : "num_buckets / 4") + " = " +
            format_integer(max_exact) +
            ": at max_exact the log branch divides by log(1) = 0, below it the buckets fall with distance)");
  }
}

long long t5_max_exact(const T5BucketParams& params) noexcept { return direction_buckets(params).max_exact; }

long long t5_relative_bucket(long long relative_position, const T5BucketParams& params) {
  require_t5_bucket_params(params);
  if (relative_position < -kMaxLength || relative_position > kMaxLength) {
    throw InvalidArgument("relative_position", format_integer(relative_position),
                          "must be " + format_integer(-kMaxLength) + " ... " + format_integer(kMaxLength));
  }
  return bucket_unchecked(relative_position, params);
}

T5BucketRow t5_bucket_row(long long length, const T5BucketParams& params) {
  require_t5_bucket_params(params);
  require_length("length", length);
  const long long n = 2 * length - 1;
  check_table_budget("T5 bucket row", n, 2, sizeof(long long));
  T5BucketRow row;
  row.relative_position.resize(n);
  row.bucket.resize(n);
  for (long long k = 0; k < n; ++k) {
    const long long r = k - (length - 1);
    row.relative_position[k] = r;
    row.bucket[k] = bucket_unchecked(r, params);
  }
  return row;
}

BucketTable t5_bucket_matrix(long long length, const T5BucketParams& params) {
  require_t5_bucket_params(params);
  require_length("length", length);
  check_table_budget("T5 bucket matrix", length, length, sizeof(std::int32_t));
  // The bucket depends on key − query only: compute the 2L − 1 values once.
  std::vector<std::int32_t> by_offset(static_cast<std::size_t>(2 * length - 1));
  for (long long k = 0; k < 2 * length - 1; ++k)
    by_offset[static_cast<std::size_t>(k)] = static_cast<std::int32_t>(bucket_unchecked(k - (length - 1), params));
  BucketTable table(length, length);
  for (long long i = 0; i < length; ++i) {
    // Key j has offset (j − i) + (length − 1).
    const std::int32_t* src = by_offset.data() + (length - 1 - i);
    std::copy(src, src + length, table.data() + i * length);
  }
  return table;
}

long long T5BucketSpan::count() const noexcept {
  if (empty) return 0;
  if (unbounded_below || unbounded_above) return -1;
  return last - first + 1;
}

std::vector<T5BucketSpan> t5_bucket_spans(const T5BucketParams& params) {
  require_t5_bucket_params(params);
  const DirectionBuckets d = direction_buckets(params);
  const std::vector<long long> first = first_distances(d);
  const long long n = d.buckets;
  // Distances [first[b], first[b + 1] − 1] map to b (the last bucket: first[N − 1] … ∞).
  auto end_of = [&](long long b) { return first[static_cast<std::size_t>(b + 1)] - 1; };
  std::vector<T5BucketSpan> spans(static_cast<std::size_t>(params.num_buckets));
  for (long long b = 0; b < params.num_buckets; ++b) spans[static_cast<std::size_t>(b)] = {b, true};
  // Keys before the query (and the query itself): relative position −n.
  for (long long b = 0; b < n; ++b) {
    T5BucketSpan& s = spans[static_cast<std::size_t>(b)];
    const long long lo = first[static_cast<std::size_t>(b)];
    const bool last_bucket = b == n - 1;
    if (!last_bucket && end_of(b) < lo) continue;  // skipped by the log branch
    s.empty = false;
    s.last = -lo;
    if (last_bucket) s.unbounded_below = true;
    else s.first = -end_of(b);
  }
  if (params.causal) {
    spans[0].unbounded_above = true;  // every key after the query is bucket 0
    return spans;
  }
  // Keys after the query: relative position +n, n >= 1, bucket N + b.
  for (long long b = 0; b < n; ++b) {
    T5BucketSpan& s = spans[static_cast<std::size_t>(n + b)];
    const long long lo = std::max<long long>(first[static_cast<std::size_t>(b)], 1);
    const bool last_bucket = b == n - 1;
    if (!last_bucket && end_of(b) < lo) continue;
    s.empty = false;
    s.first = lo;
    if (last_bucket) s.unbounded_above = true;
    else s.last = end_of(b);
  }
  return spans;
}

std::vector<long long> t5_bucket_edges(const T5BucketParams& params) {
  require_t5_bucket_params(params);
  const std::vector<long long> first = first_distances(direction_buckets(params));
  std::vector<long long> edges;
  for (const long long f : first)
    if (edges.empty() || f != edges.back()) edges.push_back(f);
  return edges;
}

}  // namespace pe
