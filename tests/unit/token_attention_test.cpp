// Permutation demo core: without positions, attention over a reordered sentence is the
// same matrix reordered (exactly); every position method breaks that.
#include "pe/analysis/token_attention.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "pe/base/errors.hpp"
#include "pe/encodings/learned.hpp"

namespace {

using pe::AttentionMethod;

const std::vector<std::string> kA = {"the", "dog", "bit", "the", "man"};
const std::vector<std::string> kB = {"the", "man", "bit", "the", "dog"};

pe::TokenAttentionParams params(long long dim = 16) {
  pe::TokenAttentionParams p;
  p.dim = dim;
  p.seed = 7;
  p.alibi_slope = 0.25;
  return p;
}

TEST(TokenAttention, NoPositionIsExactlyPermuted) {
  for (long long dim : {2, 16, 64}) {
    const auto a = pe::token_attention(kA, AttentionMethod::NoPosition, params(dim));
    const auto b = pe::token_attention(kB, AttentionMethod::NoPosition, params(dim));
    const auto check = pe::permutation_check(a, b);
    ASSERT_TRUE(check.is_reordering) << check.reason;
    EXPECT_EQ(check.max_weight_difference, 0.0) << "dim " << dim;  // bitwise, not just close
    EXPECT_EQ(check.max_output_difference, 0.0) << "dim " << dim;
  }
}

TEST(TokenAttention, DogGetsTheSameOutputWithoutPositions) {
  const auto a = pe::token_attention(kA, AttentionMethod::NoPosition, params());
  const auto b = pe::token_attention(kB, AttentionMethod::NoPosition, params());
  // "dog" is word 1 of A and word 4 of B.
  for (Eigen::Index c = 0; c < a.outputs.cols(); ++c) EXPECT_EQ(a.outputs(1, c), b.outputs(4, c));
  const auto check = pe::permutation_check(a, b);
  EXPECT_EQ(check.b_index, (std::vector<long long>{0, 4, 2, 3, 1}));
}

TEST(TokenAttention, EveryPositionMethodBreaksThePermutation) {
  for (AttentionMethod m : {AttentionMethod::Sinusoidal, AttentionMethod::Learned, AttentionMethod::Rope,
                            AttentionMethod::Alibi}) {
    const auto a = pe::token_attention(kA, m, params());
    const auto b = pe::token_attention(kB, m, params());
    const auto check = pe::permutation_check(a, b);
    ASSERT_TRUE(check.is_reordering);
    // Learned entries are N(0, 0.02): small, but far above rounding.
    EXPECT_GT(check.max_weight_difference, 1e-6) << pe::to_string(m);
    EXPECT_GT(check.max_output_difference, 1e-6) << pe::to_string(m);
  }
}

TEST(TokenAttention, RowsAreDistributions) {
  for (AttentionMethod m : {AttentionMethod::NoPosition, AttentionMethod::Sinusoidal, AttentionMethod::Learned,
                            AttentionMethod::Rope, AttentionMethod::Alibi}) {
    const auto a = pe::token_attention(kA, m, params());
    for (Eigen::Index i = 0; i < a.weights.rows(); ++i) {
      EXPECT_NEAR(a.weights.row(i).sum(), 1.0, 1e-15);
      EXPECT_GT(a.weights.row(i).minCoeff(), 0.0);  // no mask: every word sees every word
    }
  }
}

TEST(TokenAttention, RepeatedWordsShareEmbeddings) {
  const Eigen::VectorXd the = pe::word_embedding("the", 32, 7);
  EXPECT_EQ(the, pe::word_embedding("The", 32, 7));
  EXPECT_EQ(the, pe::word_embedding("the,", 32, 7));
  EXPECT_NE(the, pe::word_embedding("dog", 32, 7));
  EXPECT_NE(the, pe::word_embedding("the", 32, 8));  // the seed changes every embedding
  EXPECT_EQ(pe::normalize_word("Dog."), "dog");
  EXPECT_EQ(pe::normalize_word("..."), "...");
  // Same word twice, no positions: identical scores, so each row is uniform, 1/3.
  const auto a = pe::token_attention({"cat", "cat", "cat"}, AttentionMethod::NoPosition, params());
  for (Eigen::Index i = 0; i < 3; ++i)
    for (Eigen::Index j = 0; j < 3; ++j) EXPECT_NEAR(a.weights(i, j), 1.0 / 3.0, 1e-16);
  // Both "the" rows of A are the same row without positions.
  const auto s = pe::token_attention(kA, AttentionMethod::NoPosition, params());
  EXPECT_TRUE((s.weights.row(0) == s.weights.row(3)).all());
}

TEST(TokenAttention, AlibiBiasOnIdenticalWordsFollowsTheSlope) {
  // With equal content scores only −slope·|i − j| differs: row 0 ∝ 1, e^−s, e^−2s.
  const double s = 0.25;
  const auto a = pe::token_attention({"cat", "cat", "cat"}, AttentionMethod::Alibi, params());
  const double z = 1 + std::exp(-s) + std::exp(-2 * s);
  EXPECT_NEAR(a.weights(0, 0), 1 / z, 1e-15);
  EXPECT_NEAR(a.weights(0, 1), std::exp(-s) / z, 1e-15);
  EXPECT_NEAR(a.weights(0, 2), std::exp(-2 * s) / z, 1e-15);
  EXPECT_NEAR(a.weights(1, 0), a.weights(1, 2), 1e-16);  // symmetric bias, no causal mask
}

TEST(TokenAttention, DifferentSentencesAreReportedNotFailed) {
  const auto a = pe::token_attention(kA, AttentionMethod::NoPosition, params());
  const auto shorter = pe::token_attention({"the", "dog", "bit"}, AttentionMethod::NoPosition, params());
  const auto other = pe::token_attention({"the", "cat", "bit", "the", "man"}, AttentionMethod::NoPosition, params());
  const auto c1 = pe::permutation_check(a, shorter);
  EXPECT_FALSE(c1.is_reordering);
  EXPECT_NE(c1.reason.find("not a reordering"), std::string::npos);
  EXPECT_NE(c1.reason.find("5 words"), std::string::npos);
  const auto c2 = pe::permutation_check(a, other);
  EXPECT_FALSE(c2.is_reordering);
  EXPECT_NE(c2.reason.find("\"dog\""), std::string::npos);
  // Capitalisation and punctuation do not make a different word.
  EXPECT_TRUE(pe::match_words(kA, {"The", "man", "bit", "the", "dog."}).is_reordering);
}

TEST(TokenAttention, LearnedHasNoRowPastMaxLen) {
  auto p = params();
  p.learned_max_len = 4;
  EXPECT_THROW(pe::token_attention(kA, AttentionMethod::Learned, p), pe::PositionOutOfRange);
  p.learned_max_len = 5;
  EXPECT_NO_THROW(pe::token_attention(kA, AttentionMethod::Learned, p));
}

TEST(TokenAttention, RejectsBadInput) {
  EXPECT_THROW(pe::token_attention({}, AttentionMethod::NoPosition, params()), pe::InvalidArgument);
  EXPECT_THROW(pe::token_attention(kA, AttentionMethod::Rope, params(15)), pe::InvalidArgument);
  EXPECT_NO_THROW(pe::token_attention(kA, AttentionMethod::Sinusoidal, params(15)));
  auto p = params();
  p.theta = 1.0;
  EXPECT_THROW(pe::token_attention(kA, AttentionMethod::Sinusoidal, p), pe::InvalidArgument);
}

}  // namespace

namespace {

TEST(TokenAttention, DemoRunsEveryMethodAndKeepsErrors) {
  auto p = params();
  p.learned_max_len = 3;  // shorter than the sentences: learned has no row for word 4
  const auto demo = pe::permutation_demo(kA, kB, p);
  ASSERT_TRUE(demo.words.is_reordering);
  EXPECT_EQ(demo.methods[0].check.max_weight_difference, 0.0);
  EXPECT_TRUE(demo.methods[2].error.find("max_len 3") != std::string::npos) << demo.methods[2].error;
  EXPECT_FALSE(demo.methods[2].a.has_value());
  for (std::size_t m : {1u, 3u, 4u}) EXPECT_GT(demo.methods[m].check.max_weight_difference, 1e-6);
}

}  // namespace
