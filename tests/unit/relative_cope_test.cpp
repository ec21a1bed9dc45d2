// CoPE (Golovneva et al. 2024): counted positions over a hand-made sentence, worked out by hand.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "pe/base/errors.hpp"
#include "pe/relative/cope.hpp"

namespace {

const std::string kText = "The cat sat. The dog ran. It rained!";
// tokens: 0 The, 1 cat, 2 sat, 3 ., 4 The, 5 dog, 6 ran, 7 ., 8 It, 9 rained, 10 !

TEST(Cope, Tokens) {
  const std::vector<std::string> t = pe::cope_tokens(kText);
  const std::vector<std::string> expected = {"The", "cat", "sat", ".", "The", "dog", "ran", ".", "It", "rained", "!"};
  EXPECT_EQ(t, expected);
  EXPECT_EQ(pe::cope_tokens("don't  stop,now"), (std::vector<std::string>{"don't", "stop", ",", "now"}));
  EXPECT_EQ(pe::cope_tokens("  "), std::vector<std::string>{});
}

TEST(Cope, CountsSentenceEnds) {
  const pe::CopeCounts c = pe::cope_count(kText, pe::CopeGatePattern::SentenceEnds, 64);
  ASSERT_EQ(c.tokens.size(), 11u);
  const double gates[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1};
  for (int t = 0; t < 11; ++t) EXPECT_EQ(c.gates[t], gates[t]) << t;
  // Query 10 ("!"): sentence ends in [j, 10].
  const double from_last[] = {3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1};
  for (int j = 0; j < 11; ++j) EXPECT_EQ(c.positions(10, j), from_last[j]) << "key " << j;
  // Query 5 ("dog"): only the first "." lies between; future keys count nothing.
  const double from_dog[] = {1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0};
  for (int j = 0; j < 11; ++j) EXPECT_EQ(c.positions(5, j), from_dog[j]) << "key " << j;
}

TEST(Cope, EveryTokenIsRelativePositionPlusOne) {
  const pe::CopeCounts c = pe::cope_count(kText, pe::CopeGatePattern::EveryToken, 64);
  for (int i = 0; i < 11; ++i)
    for (int j = 0; j <= i; ++j) EXPECT_EQ(c.positions(i, j), i - j + 1);
  // Words: 8 word tokens; from query 9 back to key 0: "The cat sat The dog ran It rained" = 8.
  const pe::CopeCounts w = pe::cope_count(kText, pe::CopeGatePattern::Words, 64);
  EXPECT_EQ(w.positions(9, 0), 8.0);
  EXPECT_EQ(w.positions(10, 10), 0.0);  // "!" is not a word
  const pe::CopeCounts p = pe::cope_count(kText, pe::CopeGatePattern::Punctuation, 64);
  EXPECT_EQ(p.positions(10, 0), 3.0);
}

TEST(Cope, ClampAndInterpolate) {
  const pe::CopeCounts c = pe::cope_count(kText, pe::CopeGatePattern::EveryToken, 4);
  EXPECT_EQ(c.positions(10, 0), 3.0);  // 11 clamped to npos_max − 1
  Eigen::ArrayXd z(3);
  z << 0.0, 10.0, 20.0;
  EXPECT_DOUBLE_EQ(pe::cope_interpolate(1.25, z), 12.5);  // 20·0.25 + 10·0.75
  EXPECT_EQ(pe::cope_interpolate(2.0, z), 20.0);
  EXPECT_EQ(pe::cope_interpolate(5.0, z), 20.0);  // clamped
  EXPECT_EQ(pe::cope_interpolate(0.0, z), 0.0);
  // Soft, per-query gates.
  pe::TableD g = pe::TableD::Constant(3, 3, 0.5);
  g(2, 0) = 1.0;
  const pe::TableD p = pe::cope_positions_per_query(g);
  EXPECT_EQ(p(2, 0), 2.0);  // 1 + 0.5 + 0.5
  EXPECT_EQ(p(1, 0), 1.0);
  EXPECT_EQ(p(0, 2), 0.0);
}

TEST(Cope, RefusesBadInput) {
  auto parameter_of = [](const std::function<void()>& f) -> std::string {
    try {
      f();
    } catch (const pe::InvalidArgument& e) {
      return e.parameter();
    }
    return "(accepted)";
  };
  EXPECT_EQ(parameter_of([] { pe::cope_count(kText, pe::CopeGatePattern::Words, 0); }), "cope_npos_max");
  EXPECT_EQ(parameter_of([] { pe::cope_count("   ", pe::CopeGatePattern::Words, 8); }), "cope_text");
  EXPECT_EQ(parameter_of([] { pe::cope_gate_pattern_from_string("commas"); }), "cope_gates");
  EXPECT_EQ(parameter_of([] {
              Eigen::ArrayXd g(2);
              g << 0.5, 1.5;
              pe::cope_positions(g);
            }),
            "gates");
  EXPECT_EQ(pe::cope_gate_pattern_from_string("sentence-ends"), pe::CopeGatePattern::SentenceEnds);
}

}  // namespace
