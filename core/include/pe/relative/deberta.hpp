#pragma once
// DeBERTa-v2/v3's log-bucketed relative positions (He et al. 2021, DeBERTa-v2 and v3 use
// them; v1 has none), as Hugging Face transformers computes them:
// models/deberta_v2/modeling_deberta_v2.py, make_log_bucket_position and
// build_relative_position.
//
//   relative_position = query − key                  (q_ids[:, None] − k_ids[None, :])
//   mid = position_buckets / 2 (integer division)
//   |r| <= mid:  bucket = r
//   |r| >  mid:  bucket = sign(r) · ( ceil( log(|r| / mid) / log((max_position − 1) / mid)
//                                           · (mid − 1) ) + mid )
//   with max_position = max_relative_positions, or max_position_embeddings when
//   max_relative_positions < 1 (the config's −1 default; DebertaV2Encoder does this).
//
// transformers evaluates the log branch in float32 (abs_pos / mid → float32, torch.log in
// float32, torch.log(torch.tensor((max_position − 1) / mid)) in float32, ceil in float32);
// deberta_log_bucket does the same operations in float32.
//
// The two reference implementations differ past max_position − 1:
//  - transformers (DebertaReference::Transformers) applies the formula to any |r|: for
//    (256, 512) the buckets keep growing past ±255 (r = 512 → 256, r = 1000 → 317) and the
//    c2p / p2c row index clamps them to 0 ... 2·256 − 1 afterwards;
//  - microsoft/DeBERTa (DeBERTa/deberta/da_utils.py, DebertaReference::Microsoft) clamps r
//    to ±(max_position − 1) first and looks the bucket up in a table built with the same
//    formula (its divisor is math.log in double, rounded to float32 by the division), so
//    every |r| >= max_position − 1 gets the bucket of max_position − 1 (±255 for (256, 512)).
//  Both agree for |r| <= max_position − 1, i.e. for every pair of a 512-token input.
//
// Rows of the relative embedding table: att_span = position_buckets (pos_ebd_size; the
// encoder's rel_embeddings has 2·position_buckets rows). Content-to-position (c2p) reads row
//   δ(i, j) = clamp(bucket(i − j) + att_span, 0, 2·att_span − 1)
// for query i and key j; position-to-content (p2c) gathers with clamp(−bucket + att_span)
// and transposes, which lands on the same row δ(i, j) for pair (i, j) (checked against
// torch.gather; the paper writes δ(j, i) for p2c).
//
// Refused (InvalidArgument naming the parameter and the range):
//   position_buckets < 2 or > kMaxDebertaBuckets: mid = position_buckets / 2 must be >= 1
//       (the reference divides by mid);
//   max_relative_positions (or max_position_embeddings when it stands in) with
//       max_position − 1 <= mid: log((max_position − 1) / mid) is 0 (division by zero),
//       negative (buckets shrinking with distance) or log(<= 0); so max_position >= mid + 2.
// (Configs without position_buckets — DeBERTa v1 — use raw relative positions; not modelled.)
#include "pe/relative/module_guard.hpp"
#include <string>
#include <vector>

#include "pe/base/types.hpp"
#include "pe/relative/bucket_types.hpp"

namespace pe {

inline constexpr long long kMaxDebertaBuckets = 65536;

enum class DebertaReference { Transformers, Microsoft };
const char* to_string(DebertaReference reference);  // "transformers" / "microsoft"

// DeBERTa-v3-base / large (and v2-xlarge, mdeberta-v3-base): position_buckets 256,
// max_relative_positions −1, max_position_embeddings 512.
struct DebertaPositionParams {
  long long position_buckets = 256;
  long long max_relative_positions = -1;  // < 1: use max_position_embeddings
  long long max_position_embeddings = 512;
};

// max_relative_positions, or max_position_embeddings when max_relative_positions < 1.
long long deberta_max_position(const DebertaPositionParams& params) noexcept;
// Throws InvalidArgument (see above); names max_position_embeddings when it stands in.
void require_deberta_params(const DebertaPositionParams& params);

// make_log_bucket_position's value for one relative position (query − key), before any row
// offset; odd in the relative position (bucket(−r) = −bucket(r)). |relative_position| <=
// kMaxLength.
long long deberta_log_bucket(long long relative_position, const DebertaPositionParams& params,
                             DebertaReference reference = DebertaReference::Transformers);

// The buckets of relative positions −(length − 1) ... length − 1 (query − key), in that order:
// what `pe-viz dump --encoding deberta` prints. Budget-checked.
struct DebertaBucketRow {
  BucketArray relative_position;
  BucketArray bucket;
};
DebertaBucketRow deberta_bucket_row(long long length, const DebertaPositionParams& params,
                                    DebertaReference reference = DebertaReference::Transformers);

// length × length table of buckets (row = query i, column = key j): build_relative_position.
BucketTable deberta_bucket_matrix(long long length, const DebertaPositionParams& params,
                                  DebertaReference reference = DebertaReference::Transformers);

// att_span: position_buckets (the model's pos_ebd_size when buckets are on).
long long deberta_attention_span(const DebertaPositionParams& params) noexcept;
// Row of the relative embedding table that pair (i, j) with bucket(i − j) = `bucket` reads in
// c2p and in p2c: clamp(bucket + att_span, 0, 2·att_span − 1).
long long deberta_embedding_row(long long bucket, const DebertaPositionParams& params) noexcept;

// The first distance of each bucket on the positive side (query after key): bucket values
// 0, 1, ..., mid exactly, then each log bucket's first distance (bucket values the formula
// skips do not appear), up to distance `up_to` (inclusive). Found by bisection; up_to
// 0 ... kMaxLength, refused ("up_to") when there could be more than 10^6 bucket starts.
struct DebertaBucketEdge {
  long long bucket = 0;
  long long first_distance = 0;
};
std::vector<DebertaBucketEdge> deberta_bucket_edges(const DebertaPositionParams& params, long long up_to,
                                                    DebertaReference reference = DebertaReference::Transformers);

}  // namespace pe
