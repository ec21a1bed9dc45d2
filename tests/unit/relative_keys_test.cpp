// BERT's relative keys (transformers BertSelfAttention, position_embedding_type relative_key /
// relative_key_query) and Transformer-XL's four terms (kimiyoung/transformer-xl
// mem_transformer.py). Expected values are computed by hand here.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "pe/base/errors.hpp"
#include "pe/encodings/learned.hpp"
#include "pe/relative/relative_keys.hpp"
#include "pe/relative/transformer_xl.hpp"

namespace {

TEST(RelativeKeys, BertRowIsQueryMinusKeyPlusPMinusOne) {
  EXPECT_EQ(pe::bert_distance_row(3, 0, 512), 514);
  EXPECT_EQ(pe::bert_distance_row(0, 3, 512), 508);
  EXPECT_EQ(pe::bert_distance_row(511, 0, 512), 1022);  // the last of 2·512 − 1 rows
  EXPECT_EQ(pe::bert_distance_row(0, 511, 512), 0);
  const pe::BucketTable rows = pe::bert_distance_rows(3, 4);
  EXPECT_EQ(rows(0, 0), 3);
  EXPECT_EQ(rows(2, 0), 5);
  EXPECT_EQ(rows(0, 2), 1);
}

TEST(RelativeKeys, NoRowPastTheTable) {
  try {
    pe::bert_distance_row(512, 0, 512);
    ADD_FAILURE() << "distance 512 accepted with 512 positions";
  } catch (const pe::InvalidArgument& e) {
    EXPECT_EQ(e.parameter(), "max_position_embeddings");
    EXPECT_NE(std::string(e.what()).find(">= 513"), std::string::npos) << e.what();
  }
  EXPECT_THROW(pe::bert_distance_rows(6, 5), pe::InvalidArgument);
  EXPECT_NO_THROW(pe::bert_distance_rows(5, 5));
}

TEST(RelativeKeys, ShawClipsKeyMinusQuery) {
  EXPECT_EQ(pe::shaw_clipped_distance(0, 10, 4), 4);
  EXPECT_EQ(pe::shaw_clipped_distance(10, 0, 4), -4);
  EXPECT_EQ(pe::shaw_clipped_distance(5, 7, 4), 2);
  EXPECT_EQ(pe::shaw_clipped_distance(5, 7, 0), 0);
  EXPECT_THROW(pe::shaw_clipped_distance(5, 7, -1), pe::InvalidArgument);
}

TEST(RelativeKeys, TermsAndLogit) {
  Eigen::VectorXd q(4), k(4), e(4);
  q << 1, 2, 0, 0;
  k << 0, 1, 1, 0;
  e << 3, 0, 0, 1;
  const pe::RelativeKeyTerms key = pe::relative_key_terms(q, k, e, pe::RelativeKeyType::RelativeKey);
  EXPECT_EQ(key.content, 2.0);
  EXPECT_EQ(key.query_term, 3.0);
  EXPECT_EQ(key.key_term, 0.0);
  EXPECT_DOUBLE_EQ(key.logit(), 5.0 / 2.0);  // divided by √4 after the relative terms
  const pe::RelativeKeyTerms both = pe::relative_key_terms(q, k, e, pe::RelativeKeyType::RelativeKeyQuery);
  EXPECT_EQ(both.key_term, 0.0);  // k·e = 0 here
  Eigen::VectorXd e2(4);
  e2 << 1, 1, 1, 1;
  EXPECT_DOUBLE_EQ(pe::relative_key_terms(q, k, e2, pe::RelativeKeyType::RelativeKeyQuery).logit(), (2.0 + 3.0 + 2.0) / 2.0);
  EXPECT_EQ(pe::relative_key_type_from_string("relative_key_query"), pe::RelativeKeyType::RelativeKeyQuery);
  EXPECT_THROW(pe::relative_key_type_from_string("absolute"), pe::InvalidArgument);
}

// The view's maps: entry (i, j) reads the embedding row of distance i − j, each term over √d,
// and relative_key has no key term. Sums written out here from the seeded inputs.
TEST(RelativeKeys, TermMapsReadTheRowOfEachPairsDistance) {
  const long long n = 5, d = 6;
  const std::uint64_t seed = 7;
  const pe::RelativeKeyMaps maps = pe::relative_key_term_maps(n, d, 512, pe::RelativeKeyType::RelativeKeyQuery, seed);
  const pe::MatrixD q = pe::seeded_matrix(n, d, pe::mix_seed(seed, 1));
  const pe::MatrixD k = pe::seeded_matrix(n, d, pe::mix_seed(seed, 2));
  const pe::MatrixD e = pe::seeded_matrix(2 * n - 1, d, pe::mix_seed(seed, 3));
  for (long long i = 0; i < n; ++i)
    for (long long j = 0; j < n; ++j) {
      double qk = 0, qe = 0, ke = 0;
      for (long long c = 0; c < d; ++c) {
        qk += q(i, c) * k(j, c);
        qe += q(i, c) * e(i - j + n - 1, c);
        ke += k(j, c) * e(i - j + n - 1, c);
      }
      EXPECT_NEAR(maps.content(i, j), qk / std::sqrt(6.0), 1e-12);
      EXPECT_NEAR(maps.query_term(i, j), qe / std::sqrt(6.0), 1e-12);
      EXPECT_NEAR(maps.key_term(i, j), ke / std::sqrt(6.0), 1e-12);
    }
  // The same pair distance reads the same row: (1, 0) and (4, 3) share e, not q.
  const pe::RelativeKeyMaps key_only = pe::relative_key_term_maps(n, d, 512, pe::RelativeKeyType::RelativeKey, seed);
  EXPECT_EQ(key_only.key_term.abs().maxCoeff(), 0.0);
  EXPECT_EQ(key_only.query_term(3, 1), maps.query_term(3, 1));
  EXPECT_THROW(pe::relative_key_term_maps(6, d, 5, pe::RelativeKeyType::RelativeKey), pe::InvalidArgument);  // past the table
}

TEST(TransformerXl, RIsSinesThenCosines) {
  const Eigen::VectorXd r0 = pe::transformer_xl_r(0, 4);
  EXPECT_EQ(r0[0], 0.0);
  EXPECT_EQ(r0[1], 0.0);
  EXPECT_EQ(r0[2], 1.0);
  EXPECT_EQ(r0[3], 1.0);
  // d_model 4: frequencies 1 and 10000^(−2/4) = 1/100.
  const Eigen::VectorXd r = pe::transformer_xl_r(7, 4);
  EXPECT_NEAR(r[0], std::sin(7.0), 1e-15);
  EXPECT_NEAR(r[1], std::sin(0.07), 1e-15);
  EXPECT_NEAR(r[2], std::cos(7.0), 1e-15);
  EXPECT_NEAR(r[3], std::cos(0.07), 1e-15);
  // clamp_len: every distance past it shares R_clamp_len.
  EXPECT_EQ(pe::transformer_xl_r(10, 8, 3), pe::transformer_xl_r(3, 8));
  EXPECT_EQ(pe::transformer_xl_r(2, 8, 3), pe::transformer_xl_r(2, 8));
  EXPECT_THROW(pe::transformer_xl_r(1, 5), pe::InvalidArgument);
}

TEST(TransformerXl, FourTerms) {
  Eigen::VectorXd q(2), k(2), r(2), u(2), v(2);
  q << 1, 2;
  k << 3, 0;
  r << 0, 1;
  u << 1, 1;
  v << 2, 0;
  const pe::TransformerXlTerms t = pe::transformer_xl_terms(q, k, r, u, v);
  EXPECT_EQ(t.a, 3.0);  // q·k
  EXPECT_EQ(t.b, 2.0);  // q·r
  EXPECT_EQ(t.c, 3.0);  // u·k
  EXPECT_EQ(t.d, 0.0);  // v·r
  EXPECT_DOUBLE_EQ(t.logit(), 8.0 / std::sqrt(2.0));
}

TEST(TransformerXl, MapsHaveTheDependenciesOfEachTerm) {
  const pe::TransformerXlMaps m = pe::transformer_xl_term_maps(10, 8, 0, 3);
  for (int i = 0; i < 10; ++i) {
    for (int j = 0; j < 10; ++j) {
      if (j > i) {  // masked
        EXPECT_EQ(m.a(i, j), 0.0);
        EXPECT_EQ(m.d(i, j), 0.0);
        continue;
      }
      // (c) = u·k_j: the same for every query that sees key j.
      EXPECT_DOUBLE_EQ(m.c(i, j), m.c(j, j));
      // (d) = v·r_{i−j}: a function of the distance only.
      if (i + 1 < 10) {
        EXPECT_NEAR(m.d(i, j), m.d(i + 1, j + 1), 1e-12);
      }
    }
  }
}

}  // namespace
