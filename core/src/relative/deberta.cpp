// DeBERTa-v2/v3 log buckets: transformers models/deberta_v2/modeling_deberta_v2.py
// (make_log_bucket_position, build_relative_position) and microsoft/DeBERTa
// DeBERTa/deberta/da_utils.py (make_log_bucket_dict / make_log_bucket_position). The formula,
// its float32 steps and where the two differ are in pe/relative/deberta.hpp.
#include "pe/relative/deberta.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "pe/base/errors.hpp"

namespace pe {

namespace {

inline constexpr long long kMaxDebertaEdges = 1'000'000;

// The log branch for |r| > mid, as float32 operations in the reference's order:
//   ceil(log(abs_pos / mid) / divisor · (mid − 1)) + mid
// transformers' divisor: torch.log(torch.tensor((max_position − 1) / mid)) — the Python double
// quotient rounded to float32, then a float32 log; microsoft's: math.log((max_position − 1) / mid)
// in double, rounded to float32 when the float32 tensor is divided by it.
long long log_branch(long long abs_pos, long long mid, long long max_position, DebertaReference reference) noexcept {
  const double quotient = static_cast<double>(max_position - 1) / static_cast<double>(mid);
  const float divisor = reference == DebertaReference::Transformers ? std::log(static_cast<float>(quotient))
                                                                    : static_cast<float>(std::log(quotient));
  const float x = static_cast<float>(abs_pos) / static_cast<float>(mid);  // long / int: true division in float32
  const float scaled = std::log(x) / divisor * static_cast<float>(mid - 1);
  const float log_pos = std::ceil(scaled) + static_cast<float>(mid);
  return static_cast<long long>(log_pos);  // an integer-valued float32
}

long long bucket_unchecked(long long r, const DebertaPositionParams& p, DebertaReference reference) noexcept {
  const long long max_position = deberta_max_position(p);
  // microsoft/DeBERTa clamps the relative position into its table first.
  if (reference == DebertaReference::Microsoft) r = std::clamp(r, -(max_position - 1), max_position - 1);
  const long long mid = p.position_buckets / 2;
  const long long a = std::llabs(r);
  if (a <= mid) return r;
  const long long magnitude = log_branch(a, mid, max_position, reference);
  return r < 0 ? -magnitude : magnitude;
}

void require_relative_position(long long r) {
  if (r < -kMaxLength || r > kMaxLength) {
    throw InvalidArgument("relative_position", format_integer(r),
                          "must be " + format_integer(-kMaxLength) + " ... " + format_integer(kMaxLength));
  }
}

}  // namespace

long long deberta_max_position(const DebertaPositionParams& params) noexcept {
  // DebertaV2Encoder: max_relative_positions < 1 means max_position_embeddings.
  return params.max_relative_positions < 1 ? params.max_position_embeddings : params.max_relative_positions;
}

void require_deberta_params(const DebertaPositionParams& p) {
  if (p.position_buckets < 2 || p.position_buckets > kMaxDebertaBuckets) {
    throw InvalidArgument("position_buckets", format_integer(p.position_buckets),
                          "DeBERTa's log buckets need position_buckets 2 ... " + format_integer(kMaxDebertaBuckets) +
                              " (mid = position_buckets / 2 must be >= 1: the log branch divides by it)");
  }
  const bool stands_in = p.max_relative_positions < 1;
  const char* name = stands_in ? "max_position_embeddings" : "max_relative_positions";
  const long long max_position = deberta_max_position(p);
  const long long mid = p.position_buckets / 2;
  if (max_position < mid + 2 || max_position > kMaxLength) {
    throw InvalidArgument(
        name, format_integer(max_position),
        std::string(stands_in ? "(standing in for max_relative_positions < 1) " : "") + "with position_buckets = " +
            format_integer(p.position_buckets) + " must be " + format_integer(mid + 2) + " ... " +
            format_integer(kMaxLength) + " (log((max_position - 1) / mid) with mid = " + format_integer(mid) +
            " must be > 0: at max_position - 1 = mid it divides by zero, below the buckets shrink with distance)");
  }
}

long long deberta_log_bucket(long long relative_position, const DebertaPositionParams& params,
                             DebertaReference reference) {
  require_deberta_params(params);
  require_relative_position(relative_position);
  return bucket_unchecked(relative_position, params, reference);
}

DebertaBucketRow deberta_bucket_row(long long length, const DebertaPositionParams& params, DebertaReference reference) {
  require_deberta_params(params);
  require_length("length", length);
  const long long n = 2 * length - 1;
  check_table_budget("DeBERTa bucket row", n, 2, sizeof(long long));
  DebertaBucketRow row;
  row.relative_position.resize(n);
  row.bucket.resize(n);
  for (long long k = 0; k < n; ++k) {
    const long long r = k - (length - 1);
    row.relative_position[k] = r;
    row.bucket[k] = bucket_unchecked(r, params, reference);
  }
  return row;
}

BucketTable deberta_bucket_matrix(long long length, const DebertaPositionParams& params, DebertaReference reference) {
  require_deberta_params(params);
  require_length("length", length);
  check_table_budget("DeBERTa bucket matrix", length, length, sizeof(std::int32_t));
  // bucket(i − j) for i − j = −(length − 1) … length − 1, computed once.
  std::vector<std::int32_t> by_offset(static_cast<std::size_t>(2 * length - 1));
  for (long long k = 0; k < 2 * length - 1; ++k)
    by_offset[static_cast<std::size_t>(k)] = static_cast<std::int32_t>(bucket_unchecked(k - (length - 1), params, reference));
  BucketTable table(length, length);
  for (long long i = 0; i < length; ++i)
    for (long long j = 0; j < length; ++j) table(i, j) = by_offset[static_cast<std::size_t>(i - j + length - 1)];
  return table;
}

long long deberta_attention_span(const DebertaPositionParams& params) noexcept { return params.position_buckets; }

long long deberta_embedding_row(long long bucket, const DebertaPositionParams& params) noexcept {
  const long long span = deberta_attention_span(params);
  return std::clamp(bucket + span, 0LL, 2 * span - 1);
}

std::vector<DebertaBucketEdge> deberta_bucket_edges(const DebertaPositionParams& params, long long up_to,
                                                    DebertaReference reference) {
  require_deberta_params(params);
  require_in_range("up_to", up_to, 0, kMaxLength);
  const long long mid = params.position_buckets / 2;
  std::vector<DebertaBucketEdge> edges;
  for (long long b = 0; b <= std::min(mid, up_to); ++b) edges.push_back({b, b});
  if (up_to <= mid) return edges;
  // Past mid there is at most one new bucket per distance and per bucket value: bound the
  // walk before taking it (max_position just above mid + 1 gives a bucket to nearly every distance).
  const long long first_log = bucket_unchecked(mid + 1, params, reference);
  const long long bound = std::min(up_to - mid, bucket_unchecked(up_to, params, reference) - first_log + 1);
  if (bound > kMaxDebertaEdges) {
    throw InvalidArgument("up_to", format_integer(up_to),
                          "these parameters have up to " + format_integer(bound) + " bucket starts up to there; at most " +
                              format_integer(kMaxDebertaEdges) + " per call (ask for a smaller distance)");
  }
  // Buckets grow monotonically with the distance: from each bucket's first distance, bisect
  // for the first distance of a larger bucket.
  for (long long a = mid + 1; a <= up_to;) {
    const long long b = bucket_unchecked(a, params, reference);
    edges.push_back({b, a});
    long long lo = a + 1, hi = up_to + 1;  // hi: "none up to up_to"
    while (lo < hi) {
      const long long m = lo + (hi - lo) / 2;
      if (bucket_unchecked(m, params, reference) > b) hi = m;
      else lo = m + 1;
    }
    a = lo;
  }
  return edges;
}

}  // namespace pe
