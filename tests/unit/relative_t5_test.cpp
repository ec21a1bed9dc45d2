// T5's relative position buckets and bias, against transformers'
// T5Attention._relative_position_bucket. Expected values are worked out by hand below and,
// independently of the code under test, re-derived here with the reference's float32 steps.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "pe/base/errors.hpp"
#include "pe/relative/t5_bias.hpp"
#include "pe/relative/t5_buckets.hpp"

namespace {

// The reference, written out again: torch does each operation in float32, left to right, and
// .to(torch.long) truncates.
long long reference_bucket(long long rp, long long num_buckets, long long max_distance, bool bidirectional) {
  long long out = 0;
  long long n = 0;
  if (bidirectional) {
    num_buckets /= 2;
    if (rp > 0) out += num_buckets;
    n = rp < 0 ? -rp : rp;
  } else {
    n = rp < 0 ? -rp : 0;
  }
  const long long max_exact = num_buckets / 2;
  if (n < max_exact) return out + n;
  float v = static_cast<float>(n) / static_cast<float>(max_exact);
  v = std::log(v);
  v = v / static_cast<float>(std::log(static_cast<double>(max_distance) / static_cast<double>(max_exact)));
  v = v * static_cast<float>(num_buckets - max_exact);
  const long long large = std::min(max_exact + static_cast<long long>(v), num_buckets - 1);
  return out + large;
}

// t5-base (num_buckets 32, max_distance 128), bidirectional (encoder). Worked out by hand:
// each direction has 16 buckets, max_exact = 8; a key n >= 8 tokens away gets bucket
// 8 + trunc(8·log(n/8)/log(16)), so bucket b >= 8 starts at the first n >= 8·16^((b − 8)/8):
//   b:      8    9      10    11     12    13     14    15
//   start:  8  11.31→12  16  22.63→23  32  45.25→46  64  90.51→91
// At 16, 32, 64 the real value is an exact integer (2, 4, 6): float32 keeps it exact, because
// float(log 16) = 4·float(log 2) (a power-of-two multiple rounds alike), so log(2)/log(16)
// is exactly 0.25 in float32 and 16 starts bucket 10 (likewise 32 → 12, 64 → 14).
// Keys after the query use buckets 16 + the same (bucket 16 itself, distance 0, never occurs).
const std::vector<long long> kBidirectionalStarts = {0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 23, 32, 46, 64, 91};

// t5-base decoder (causal): 32 buckets, max_exact = 16, bucket b >= 16 starts at the first
// n >= 16·8^((b − 16)/16) (no exact integers besides b = 16):
//   b:     16  17    18    19    20    21    22    23    24    25    26    27    28    29    30    31
//   16·8^: 16 18.22 20.75 23.63 26.91 30.64 34.90 39.74 45.25 51.54 58.69 66.83 76.11 86.67 98.70 112.4
const std::vector<long long> kCausalStarts = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                              16, 19, 21, 24, 27, 31, 35, 40, 46, 52, 59, 67, 77, 87, 99, 113};

pe::T5BucketParams t5_base(bool causal) { return {32, 128, causal}; }

TEST(T5Buckets, BidirectionalTableOfT5BaseAtEveryBoundary) {
  const pe::T5BucketParams p = t5_base(false);
  for (std::size_t b = 0; b < kBidirectionalStarts.size(); ++b) {
    const long long start = kBidirectionalStarts[b];
    const long long bucket = static_cast<long long>(b);
    // Keys before the query: relative position −n.
    EXPECT_EQ(pe::t5_relative_bucket(-start, p), bucket) << "distance " << start << " before";
    if (start > 0) {
      EXPECT_EQ(pe::t5_relative_bucket(-(start - 1), p), bucket - 1) << "distance " << start - 1;
    }
    // Keys after the query: relative position +n (n >= 1), 16 + bucket.
    if (start > 0) {
      EXPECT_EQ(pe::t5_relative_bucket(start, p), 16 + bucket) << "distance " << start << " after";
      if (start > 1) {
        EXPECT_EQ(pe::t5_relative_bucket(start - 1, p), 16 + bucket - 1);
      }
    }
  }
  EXPECT_EQ(pe::t5_relative_bucket(0, p), 0);
  EXPECT_EQ(pe::t5_relative_bucket(1, p), 17);
  EXPECT_EQ(pe::t5_relative_bucket(-90, p), 14);
  EXPECT_EQ(pe::t5_relative_bucket(-91, p), 15);
  EXPECT_EQ(pe::t5_relative_bucket(-1'000'000, p), 15);
  EXPECT_EQ(pe::t5_relative_bucket(1'000'000, p), 31);
}

TEST(T5Buckets, CausalTableOfT5BaseAtEveryBoundary) {
  const pe::T5BucketParams p = t5_base(true);
  for (std::size_t b = 0; b < kCausalStarts.size(); ++b) {
    const long long start = kCausalStarts[b];
    EXPECT_EQ(pe::t5_relative_bucket(-start, p), static_cast<long long>(b)) << "distance " << start;
    if (start > 0) {
      EXPECT_EQ(pe::t5_relative_bucket(-(start - 1), p), static_cast<long long>(b) - 1);
    }
  }
  // Every key after the query: bucket 0.
  for (long long r : {1LL, 2LL, 100LL, 1'000'000LL}) EXPECT_EQ(pe::t5_relative_bucket(r, p), 0);
  EXPECT_EQ(pe::t5_relative_bucket(-128, p), 31);  // max_distance: 16 + 16 = 32, clamped to 31
}

TEST(T5Buckets, MatchesTheFloat32FormulaAtEveryDistance) {
  for (const bool causal : {false, true}) {
    for (const pe::T5BucketParams p : {pe::T5BucketParams{32, 128, causal}, pe::T5BucketParams{320, 800, causal},
                                       pe::T5BucketParams{64, 256, causal}, pe::T5BucketParams{8, 40, causal},
                                       pe::T5BucketParams{33, 100, causal}, pe::T5BucketParams{32, 9 + 8 * causal, causal}}) {
      for (long long r = -3000; r <= 3000; ++r) {
        ASSERT_EQ(pe::t5_relative_bucket(r, p), reference_bucket(r, p.num_buckets, p.max_distance, !causal))
            << "num_buckets " << p.num_buckets << " max_distance " << p.max_distance << " causal " << causal
            << " relative position " << r;
      }
    }
  }
}

TEST(T5Buckets, RowIsKeyMinusQuery) {
  const pe::T5BucketRow row = pe::t5_bucket_row(4, t5_base(false));
  ASSERT_EQ(row.relative_position.size(), 7);
  const long long expected_rp[] = {-3, -2, -1, 0, 1, 2, 3};
  const long long expected_b[] = {3, 2, 1, 0, 17, 18, 19};
  for (int k = 0; k < 7; ++k) {
    EXPECT_EQ(row.relative_position[k], expected_rp[k]);
    EXPECT_EQ(row.bucket[k], expected_b[k]);
  }
  // compute_bias: entry (query i, key j) is bucket(j − i).
  const pe::BucketTable m = pe::t5_bucket_matrix(20, t5_base(true));
  for (int i = 0; i < 20; ++i)
    for (int j = 0; j < 20; ++j) EXPECT_EQ(m(i, j), reference_bucket(j - i, 32, 128, false));
}

TEST(T5Buckets, SpansOfT5Base) {
  const std::vector<pe::T5BucketSpan> s = pe::t5_bucket_spans(t5_base(false));
  ASSERT_EQ(s.size(), 32u);
  EXPECT_FALSE(s[0].empty);
  EXPECT_EQ(s[0].first, 0);
  EXPECT_EQ(s[0].last, 0);
  EXPECT_EQ(s[8].first, -11);  // distances 8 … 11 before the query
  EXPECT_EQ(s[8].last, -8);
  EXPECT_EQ(s[8].count(), 4);
  EXPECT_TRUE(s[15].unbounded_below);
  EXPECT_EQ(s[15].last, -91);
  EXPECT_EQ(s[15].count(), -1);
  EXPECT_TRUE(s[16].empty);  // distance 0 after the query does not exist
  EXPECT_EQ(s[16].count(), 0);
  EXPECT_EQ(s[17].first, 1);
  EXPECT_EQ(s[17].last, 1);
  EXPECT_EQ(s[24].first, 8);
  EXPECT_EQ(s[24].last, 11);
  EXPECT_EQ(s[30].first, 64);
  EXPECT_EQ(s[30].last, 90);
  EXPECT_TRUE(s[31].unbounded_above);
  EXPECT_EQ(s[31].first, 91);

  const std::vector<pe::T5BucketSpan> c = pe::t5_bucket_spans(t5_base(true));
  EXPECT_TRUE(c[0].unbounded_above);  // the query and every key after it
  EXPECT_EQ(c[0].first, 0);
  EXPECT_EQ(c[16].first, -18);
  EXPECT_EQ(c[16].last, -16);
  EXPECT_EQ(c[16].count(), 3);
  EXPECT_TRUE(c[31].unbounded_below);
  EXPECT_EQ(c[31].last, -113);
  EXPECT_EQ(pe::t5_bucket_edges(t5_base(true)), kCausalStarts);
  EXPECT_EQ(pe::t5_bucket_edges(t5_base(false)), kBidirectionalStarts);
}

TEST(T5Buckets, SkippedBucketsAreEmpty) {
  // max_distance 9 with max_exact 8: distance 8 is bucket 8, distance 9 already the last (15).
  const std::vector<pe::T5BucketSpan> s = pe::t5_bucket_spans({32, 9, false});
  EXPECT_EQ(s[8].first, -8);
  EXPECT_EQ(s[8].last, -8);
  for (int b = 9; b < 15; ++b) EXPECT_TRUE(s[b].empty) << b;
  EXPECT_EQ(s[15].last, -9);
  // Odd num_buckets, bidirectional: the last bucket is never used.
  EXPECT_TRUE(pe::t5_bucket_spans({33, 100, false})[32].empty);
}

TEST(T5Buckets, RefusesWhatBreaksTheReference) {
  auto expect_refused = [](pe::T5BucketParams p, const std::string& parameter, const std::string& range) {
    try {
      pe::require_t5_bucket_params(p);
      ADD_FAILURE() << "accepted num_buckets " << p.num_buckets << " max_distance " << p.max_distance;
    } catch (const pe::InvalidArgument& e) {
      EXPECT_EQ(e.parameter(), parameter);
      EXPECT_NE(std::string(e.what()).find(range), std::string::npos) << e.what();
    }
  };
  // Bidirectional: max_exact = (num_buckets / 2) / 2; max_distance must exceed it.
  expect_refused({32, 8, false}, "max_distance", "9 ... 1000000000000");
  expect_refused({32, 1, false}, "max_distance", "9 ... ");
  expect_refused({32, 0, false}, "max_distance", "9 ... ");
  expect_refused({34, 8, false}, "max_distance", "9 ... ");  // (34 / 2) / 2 = 8, not 8.5
  expect_refused({3, 128, false}, "num_buckets", "4 ... 65536");
  expect_refused({0, 128, false}, "num_buckets", "4 ... 65536");
  expect_refused({-32, 128, false}, "num_buckets", "4 ... 65536");
  // Causal: max_exact = num_buckets / 2.
  expect_refused({32, 16, true}, "max_distance", "17 ... ");
  expect_refused({1, 128, true}, "num_buckets", "2 ... 65536");
  expect_refused({65537, 1'000'000, true}, "num_buckets", "2 ... 65536");
  expect_refused({32, 1'000'000'000'001, true}, "max_distance", "17 ... 1000000000000");
  // The smallest accepted values work and stay in range.
  for (const pe::T5BucketParams p : {pe::T5BucketParams{32, 9, false}, pe::T5BucketParams{32, 17, true},
                                     pe::T5BucketParams{4, 2, false}, pe::T5BucketParams{2, 2, true}}) {
    for (long long r = -50; r <= 50; ++r) {
      const long long b = pe::t5_relative_bucket(r, p);
      EXPECT_TRUE(b >= 0 && b < p.num_buckets);
      EXPECT_EQ(b, reference_bucket(r, p.num_buckets, p.max_distance, !p.causal));
    }
  }
}

TEST(T5Bias, LookupAddsToTheUnscaledDotProduct) {
  pe::T5BiasTable t;
  t.bias = pe::TableD(32, 2);
  for (int b = 0; b < 32; ++b) {
    t.bias(b, 0) = b;
    t.bias(b, 1) = -10.0 * b;
  }
  const pe::T5BucketParams p = t5_base(false);
  EXPECT_EQ(pe::t5_bias(t, p, -16, 0), 10.0);
  EXPECT_EQ(pe::t5_bias(t, p, 16, 1), -260.0);
  const pe::TableD m = pe::t5_bias_matrix(t, p, 3, 5, 0);  // query 3, key 5
  ASSERT_EQ(m.rows(), 3);
  ASSERT_EQ(m.cols(), 5);
  EXPECT_EQ(m(2, 0), 2.0);   // key − query = −2 → bucket 2
  EXPECT_EQ(m(0, 4), 20.0);  // +4 → bucket 20
  Eigen::VectorXd q(2), k(2);
  q << 3, 4;
  k << 1, 2;
  EXPECT_EQ(pe::t5_logit(q, k, 0.5), 11.5);  // 3 + 8 + 0.5: no 1/√2
  EXPECT_THROW(pe::t5_bias(t, p, 0, 2), pe::InvalidArgument);
  pe::T5BiasTable wrong;
  wrong.bias = pe::TableD::Zero(31, 2);
  EXPECT_THROW(pe::t5_bias(wrong, p, 0, 0), pe::InvalidArgument);
}

TEST(T5Bias, IllustrativeTableIsMarkedAndFollowsItsRule) {
  const pe::T5BiasTable t = pe::t5_illustrative_bias_table(t5_base(false), 4);
  EXPECT_TRUE(t.illustrative);
  ASSERT_EQ(t.bias.rows(), 32);
  ASSERT_EQ(t.bias.cols(), 4);
  // Bucket 10 starts at distance 16 before the query: −((h + 1)/4)·log(17).
  for (int h = 0; h < 4; ++h) EXPECT_NEAR(t.bias(10, h), -(h + 1) / 4.0 * std::log(17.0), 1e-15);
  // Bucket 26 (keys 16 … 22 after it): half of that.
  EXPECT_NEAR(t.bias(26, 3), -0.5 * std::log(17.0), 1e-15);
  EXPECT_EQ(t.bias(0, 0), 0.0);
  EXPECT_EQ(t.bias(16, 0), 0.0);  // the unused bucket
}

TEST(T5Bias, OneTablePerStackOrPerLayer) {
  const pe::T5BucketParams p = t5_base(false);
  const pe::T5StackBias t5 = pe::t5_illustrative_stack(p, 12, 12, pe::T5BiasSharing::PerStack);
  EXPECT_EQ(t5.tables.size(), 1u);
  EXPECT_EQ(&t5.table_for_layer(0), &t5.table_for_layer(11));  // shared by every layer
  EXPECT_NO_THROW(pe::require_t5_stack(t5, p));
  const pe::T5StackBias umt5 = pe::t5_illustrative_stack(p, 12, 8, pe::T5BiasSharing::PerLayer);
  EXPECT_EQ(umt5.tables.size(), 8u);
  EXPECT_NE(umt5.table_for_layer(0).bias(10, 0), umt5.table_for_layer(7).bias(10, 0));
  EXPECT_THROW(umt5.table_for_layer(8), pe::InvalidArgument);
  pe::T5StackBias broken = umt5;
  broken.tables.pop_back();
  try {
    pe::require_t5_stack(broken, p);
    ADD_FAILURE() << "a per-layer stack with a table missing was accepted";
  } catch (const pe::InvalidArgument& e) {
    EXPECT_EQ(e.parameter(), "tables");
  }
  EXPECT_STREQ(pe::to_string(pe::T5BiasSharing::PerLayer), "per-layer");
}

}  // namespace

namespace {

// A column is the table's column, entry for entry (the comparison draws one head of many).
TEST(T5Bias, IllustrativeColumnIsTheTablesColumn) {
  for (const bool causal : {false, true}) {
    const pe::T5BucketParams p{32, 128, causal};
    const pe::T5BiasTable table = pe::t5_illustrative_bias_table(p, 12);
    for (long long h : {0LL, 5LL, 11LL}) {
      const Eigen::ArrayXd column = pe::t5_illustrative_bias_column(p, 12, h);
      ASSERT_EQ(column.size(), 32);
      for (long long b = 0; b < 32; ++b) EXPECT_EQ(column[b], table.bias(b, h)) << b << ", " << h;
    }
  }
  EXPECT_THROW(pe::t5_illustrative_bias_column({32, 128, false}, 12, 12), pe::InvalidArgument);
}

}  // namespace
