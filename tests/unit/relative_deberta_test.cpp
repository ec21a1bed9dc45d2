// DeBERTa-v2/v3 log buckets (transformers' make_log_bucket_position, microsoft/DeBERTa's
// da_utils) and the disentangled score split. Expected values: worked out by hand below, and
// the formula re-derived here in double (for (256, 512) no distance lies within float32's
// reach of a ceil boundary, so double and float32 agree on every bucket checked).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "pe/base/errors.hpp"
#include "pe/relative/deberta.hpp"
#include "pe/relative/deberta_score.hpp"

namespace {

long long reference_bucket(long long r, long long buckets, long long max_position) {
  const long long mid = buckets / 2;
  const long long a = std::llabs(r);
  if (a <= mid) return r;
  const double lp = std::ceil(std::log(static_cast<double>(a) / mid) / std::log((max_position - 1.0) / mid) * (mid - 1)) + mid;
  return r < 0 ? -static_cast<long long>(lp) : static_cast<long long>(lp);
}

const pe::DebertaPositionParams kV3{256, -1, 512};  // deberta-v3-base

TEST(DebertaBuckets, ExactUpToMid) {
  for (long long r = -128; r <= 128; ++r) EXPECT_EQ(pe::deberta_log_bucket(r, kV3), r);
}

TEST(DebertaBuckets, V3BoundariesWorkedOutByHand) {
  // mid = 128, max_position = 512 (max_relative_positions −1 → max_position_embeddings):
  // bucket(a) = ceil(127·log(a/128)/log(511/128)) + 128 for a > 128, log(511/128) = 1.38434.
  //   a = 129: 127·0.0077820/1.38434 = 0.714 → 1 → 129
  //   a = 131: 127·0.0231671/1.38434 = 2.125 → 3 → 131
  //   a = 132: 127·0.0307716/1.38434 = 2.823 → 3 → 131   (two distances share bucket 131)
  //   a = 133: 127·0.0383188/1.38434 = 3.515 → 4 → 132
  //   a = 505: 127·1.372528/1.38434 = 125.92 → 126 → 254;  a = 506: 126.10 → 127 → 255
  //   a = 511: exactly 127 → 255 (the divisor and the numerator are the same float32 log)
  //   a = 512: 127.18 → 128 → 256 (transformers; microsoft clamps to 511 first: 255)
  //   a = 1000: 127·2.055725/1.38434 = 188.6 → 189 → 317
  struct Case {
    long long r, transformers, microsoft;
  };
  for (const Case c : {Case{129, 129, 129}, Case{130, 130, 130}, Case{131, 131, 131}, Case{132, 131, 131},
                       Case{133, 132, 132}, Case{505, 254, 254}, Case{506, 255, 255}, Case{511, 255, 255},
                       Case{512, 256, 255}, Case{1000, 317, 255}, Case{-512, -256, -255}, Case{-511, -255, -255},
                       Case{-129, -129, -129}}) {
    EXPECT_EQ(pe::deberta_log_bucket(c.r, kV3), c.transformers) << c.r;
    EXPECT_EQ(pe::deberta_log_bucket(c.r, kV3, pe::DebertaReference::Microsoft), c.microsoft) << c.r;
  }
}

TEST(DebertaBuckets, EveryBoundaryOfV3) {
  // Bucket b > 128 starts at the first integer a with 127·log(a/128)/log(511/128) > b − 129,
  // i.e. a = floor(128·(511/128)^((b − 129)/127)) + 1; check it and the distance before it.
  for (long long b = 129; b <= 320; ++b) {
    const double bound = 128.0 * std::pow(511.0 / 128.0, (b - 129.0) / 127.0);
    const long long start = static_cast<long long>(std::floor(bound)) + 1;
    EXPECT_GE(pe::deberta_log_bucket(start, kV3), b) << "bucket " << b << " start " << start;
    EXPECT_LT(pe::deberta_log_bucket(start - 1, kV3), b) << "bucket " << b << " start " << start;
    EXPECT_EQ(pe::deberta_log_bucket(-start, kV3), -pe::deberta_log_bucket(start, kV3));
  }
  for (long long r = -4000; r <= 4000; ++r) ASSERT_EQ(pe::deberta_log_bucket(r, kV3), reference_bucket(r, 256, 512)) << r;
  // microsoft/DeBERTa: the same inside ±511, the bucket of ±511 beyond.
  for (long long r = -4000; r <= 4000; ++r) {
    const long long clamped = std::max(-511LL, std::min(511LL, r));
    ASSERT_EQ(pe::deberta_log_bucket(r, kV3, pe::DebertaReference::Microsoft), reference_bucket(clamped, 256, 512)) << r;
  }
}

TEST(DebertaBuckets, OtherParameters) {
  for (const pe::DebertaPositionParams p : {pe::DebertaPositionParams{64, 512, 512}, pe::DebertaPositionParams{32, 128, 0},
                                            pe::DebertaPositionParams{512, 1024, 512}}) {
    const long long mp = pe::deberta_max_position(p);
    for (long long r = -3000; r <= 3000; ++r)
      ASSERT_EQ(pe::deberta_log_bucket(r, p), reference_bucket(r, p.position_buckets, mp)) << r;
  }
  // position_buckets 2: mid 1, mid − 1 = 0: every |r| > 1 is bucket ±1.
  const pe::DebertaPositionParams two{2, 3, 512};
  EXPECT_EQ(pe::deberta_log_bucket(5, two), 1);
  EXPECT_EQ(pe::deberta_log_bucket(-5, two), -1);
  EXPECT_EQ(pe::deberta_log_bucket(1, two), 1);
}

TEST(DebertaBuckets, RowMatrixAndEmbeddingRows) {
  const pe::DebertaBucketRow row = pe::deberta_bucket_row(600, kV3);
  ASSERT_EQ(row.relative_position.size(), 1199);
  EXPECT_EQ(row.relative_position[0], -599);  // query − key, ascending
  EXPECT_EQ(row.bucket[0], reference_bucket(-599, 256, 512));
  EXPECT_EQ(row.bucket[599], 0);
  const pe::BucketTable m = pe::deberta_bucket_matrix(6, kV3);
  EXPECT_EQ(m(5, 0), 5);   // query 5, key 0: +5
  EXPECT_EQ(m(0, 5), -5);
  // c2p / p2c row: clamp(bucket + 256, 0, 511).
  EXPECT_EQ(pe::deberta_attention_span(kV3), 256);
  EXPECT_EQ(pe::deberta_embedding_row(0, kV3), 256);
  EXPECT_EQ(pe::deberta_embedding_row(-255, kV3), 1);
  EXPECT_EQ(pe::deberta_embedding_row(255, kV3), 511);
  EXPECT_EQ(pe::deberta_embedding_row(-256, kV3), 0);   // reached only past 512 tokens (transformers)
  EXPECT_EQ(pe::deberta_embedding_row(317, kV3), 511);
  EXPECT_EQ(pe::deberta_embedding_row(-317, kV3), 0);
}

TEST(DebertaBuckets, Edges) {
  const std::vector<pe::DebertaBucketEdge> e = pe::deberta_bucket_edges(kV3, 520);
  ASSERT_GE(e.size(), 200u);
  EXPECT_EQ(e[128].bucket, 128);
  EXPECT_EQ(e[128].first_distance, 128);
  EXPECT_EQ(e[129].bucket, 129);
  EXPECT_EQ(e[129].first_distance, 129);
  EXPECT_EQ(e[132].bucket, 132);
  EXPECT_EQ(e[132].first_distance, 133);
  EXPECT_EQ(e.back().bucket, 257);  // 517 → 257
  bool found_255 = false;
  for (const auto& x : e)
    if (x.bucket == 255) found_255 = x.first_distance == 506;
  EXPECT_TRUE(found_255);
  // Against a walk over every distance, both references.
  for (const pe::DebertaReference ref : {pe::DebertaReference::Transformers, pe::DebertaReference::Microsoft}) {
    std::vector<pe::DebertaBucketEdge> walk;
    for (long long a = 0; a <= 3000; ++a) {
      const long long b = reference_bucket(ref == pe::DebertaReference::Microsoft ? std::min(a, 511LL) : a, 256, 512);
      if (walk.empty() || walk.back().bucket != b) walk.push_back({b, a});
    }
    const std::vector<pe::DebertaBucketEdge> got = pe::deberta_bucket_edges(kV3, 3000, ref);
    ASSERT_EQ(got.size(), walk.size());
    for (std::size_t k = 0; k < walk.size(); ++k) {
      EXPECT_EQ(got[k].bucket, walk[k].bucket);
      EXPECT_EQ(got[k].first_distance, walk[k].first_distance);
    }
  }
  // max_position just above mid + 1: nearly every distance its own bucket; refused, not walked.
  try {
    pe::deberta_bucket_edges({65536, 32770, 512}, 1'000'000'000'000LL);
    ADD_FAILURE() << "a walk over 10^12 distances was started";
  } catch (const pe::InvalidArgument& e) {
    EXPECT_EQ(e.parameter(), "up_to");
  }
}

TEST(DebertaBuckets, RefusesWhatBreaksTheReference) {
  auto expect_refused = [](pe::DebertaPositionParams p, const std::string& parameter, const std::string& text) {
    try {
      pe::require_deberta_params(p);
      ADD_FAILURE() << "accepted " << p.position_buckets << ", " << p.max_relative_positions;
    } catch (const pe::InvalidArgument& e) {
      EXPECT_EQ(e.parameter(), parameter);
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
  };
  expect_refused({1, 512, 512}, "position_buckets", "2 ... 65536");
  expect_refused({0, 512, 512}, "position_buckets", "2 ... 65536");
  expect_refused({-1, 512, 512}, "position_buckets", "2 ... 65536");
  // mid 128: max_position − 1 must exceed 128, so max_position >= 130.
  expect_refused({256, 129, 512}, "max_relative_positions", "130 ... ");
  expect_refused({256, 100, 512}, "max_relative_positions", "130 ... ");
  expect_refused({256, -1, 129}, "max_position_embeddings", "130 ... ");
  EXPECT_NO_THROW(pe::require_deberta_params({256, 130, 512}));
  EXPECT_NO_THROW(pe::require_deberta_params({2, 3, 512}));
  EXPECT_THROW(pe::deberta_log_bucket(2'000'000'000'000LL, kV3), pe::InvalidArgument);
}

TEST(DebertaScore, SplitScaledByOneOverSqrtThreeD) {
  Eigen::VectorXd q(2), k(2), kr(2), qr(2);
  q << 1, 0;
  k << 1, 1;
  kr << 1, 1;
  qr << 2, 0;
  const pe::DebertaScoreSplit s = pe::deberta_score_split(q, k, kr, qr, {true, true});
  const double scale = 1.0 / std::sqrt(6.0);  // d = 2, scale_factor 3
  EXPECT_NEAR(s.c2c, 1.0 * scale, 1e-15);
  EXPECT_NEAR(s.c2p, 1.0 * scale, 1e-15);  // q·Kr
  EXPECT_NEAR(s.p2c, 2.0 * scale, 1e-15);  // k·Qr
  EXPECT_NEAR(s.total(), 4.0 * scale, 1e-15);
  EXPECT_NEAR(s.positional(), 3.0 * scale, 1e-15);
  const pe::DebertaScoreSplit c2p_only = pe::deberta_score_split(q, k, kr, qr, {true, false});
  EXPECT_NEAR(c2p_only.c2c, 0.5, 1e-15);  // 1/√(2·2)
  EXPECT_EQ(c2p_only.p2c, 0.0);
  EXPECT_EQ(pe::deberta_scale_factor({false, false}), 1);
  EXPECT_EQ(pe::deberta_scale_factor({true, true}), 3);
}

TEST(DebertaScore, PosAttTypeNames) {
  const pe::DebertaAttentionTypes both = pe::deberta_attention_types_from_string("P2C | c2p");
  EXPECT_TRUE(both.c2p && both.p2c);
  EXPECT_EQ(pe::to_string(both), "c2p|p2c");
  const pe::DebertaAttentionTypes none = pe::deberta_attention_types_from_string("none");
  EXPECT_FALSE(none.c2p || none.p2c);
  EXPECT_EQ(pe::to_string(pe::deberta_attention_types_from_string("c2p")), "c2p");
  try {
    pe::deberta_attention_types_from_string("c2p|p2p");
    ADD_FAILURE() << "p2p accepted";
  } catch (const pe::InvalidArgument& e) {
    EXPECT_EQ(e.parameter(), "pos_att_type");
  }
}

TEST(DebertaScore, MapsSplitTheScore) {
  const pe::DebertaScoreMaps m = pe::deberta_score_maps(12, 16, kV3, {true, true}, 7);
  EXPECT_EQ(m.scale_factor, 3);
  for (int i = 0; i < 12; ++i) {
    for (int j = 0; j < 12; ++j) {
      EXPECT_GE(m.position_share(i, j), 0.0);
      EXPECT_LE(m.position_share(i, j), 1.0);
      const double mag = std::abs(m.c2c(i, j)) + std::abs(m.c2p(i, j)) + std::abs(m.p2c(i, j));
      EXPECT_NEAR(m.position_share(i, j), (std::abs(m.c2p(i, j)) + std::abs(m.p2c(i, j))) / mag, 1e-12);
    }
  }
  const pe::DebertaScoreMaps none = pe::deberta_score_maps(12, 16, kV3, {false, false}, 7);
  EXPECT_TRUE((none.c2p == 0.0).all());
  EXPECT_TRUE((none.position_share == 0.0).all());
  // Without position terms the scale is 1/√d: c2c grows by √3 against the split with both.
  EXPECT_NEAR(none.c2c(3, 4), m.c2c(3, 4) * std::sqrt(3.0), 1e-12);
}

}  // namespace
