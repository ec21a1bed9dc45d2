// Extreme inputs everywhere: each is refused with InvalidArgument (never a crash, a hang
// or undefined behaviour; the sanitizer build runs this too).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "pe/encodings/alibi.hpp"
#include "pe/analysis/analysis.hpp"
#include "pe/base/errors.hpp"
#include "pe/encodings/learned.hpp"
#include "pe/encodings/rope.hpp"
#include "pe/encodings/sinusoidal.hpp"

namespace {

constexpr long long kHuge = std::numeric_limits<long long>::max();
constexpr long long kMost = std::numeric_limits<long long>::min();
const double kNan = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

TEST(HostileInput, IntegerExtremes) {
  for (long long v : {kHuge, kMost, -1LL, 0LL}) {
    EXPECT_THROW(pe::inverse_frequencies(v), pe::InvalidArgument) << v;
    EXPECT_THROW(pe::sinusoidal_table(v, 8), pe::InvalidArgument) << v;
    EXPECT_THROW(pe::sinusoidal_table(8, v), pe::InvalidArgument) << v;
    EXPECT_THROW(pe::rope_tables(pe::inverse_frequencies(8), v), pe::InvalidArgument) << v;
    EXPECT_THROW(pe::alibi_slopes(v), pe::InvalidArgument) << v;
    EXPECT_THROW(pe::alibi_bias(0.5, v), pe::InvalidArgument) << v;
    EXPECT_THROW(pe::LearnedEmbedding(v, 8), pe::InvalidArgument) << v;
    EXPECT_THROW(pe::full_turns(pe::inverse_frequencies(8), v), pe::InvalidArgument) << v;
  }
  EXPECT_THROW(pe::rope_tables(pe::inverse_frequencies(8), 10, kHuge), pe::InvalidArgument);
  EXPECT_THROW(pe::rope_tables(pe::inverse_frequencies(8), 10, kMost), pe::InvalidArgument);
  EXPECT_THROW(pe::sinusoidal_table(10, 8, 10000.0, kHuge), pe::InvalidArgument);
  EXPECT_THROW(pe::sinusoidal_value(kMost, 0, 8), pe::InvalidArgument);
  const pe::LearnedEmbedding e(4, 2);
  EXPECT_THROW(e.at(kHuge), pe::PositionOutOfRange);
  EXPECT_THROW(e.rows(kHuge, kHuge), pe::InvalidArgument);  // length over kMaxLength
  EXPECT_THROW(e.rows(2, pe::kMaxLength), pe::PositionOutOfRange);
}

TEST(HostileInput, FloatingExtremes) {
  for (double v : {kNan, kInf, -kInf, 0.0, -1.0, 1.0}) {
    EXPECT_THROW(pe::inverse_frequencies(8, v), pe::InvalidArgument) << v;
    EXPECT_THROW(pe::sinusoidal_frequencies(8, v), pe::InvalidArgument) << v;
    pe::AttentionParams p;
    p.theta = v;
    EXPECT_THROW(pe::attention_pattern(pe::AttentionMethod::Rope, p), pe::InvalidArgument) << v;
  }
  for (double v : {kNan, kInf, -kInf}) {
    EXPECT_THROW(pe::alibi_bias(v, 4), pe::InvalidArgument);
    EXPECT_THROW(pe::LearnedEmbedding(4, 4, v), pe::InvalidArgument);
    Eigen::ArrayXd f = pe::inverse_frequencies(8);
    f[3] = v;
    EXPECT_THROW(pe::rope_tables(f, 4), pe::InvalidArgument);
    EXPECT_THROW(pe::wavelengths(f), pe::InvalidArgument);
    EXPECT_THROW(pe::long_term_decay_bound(f, Eigen::ArrayXd::Zero(3)), pe::InvalidArgument);
    Eigen::ArrayXd deltas = Eigen::ArrayXd::LinSpaced(5, 0, 4);
    deltas[4] = v;
    EXPECT_THROW(pe::long_term_decay_bound(pe::inverse_frequencies(8), deltas), pe::InvalidArgument);
    EXPECT_THROW(pe::relative_score_curve(pe::VectorChoice::Identical, pe::inverse_frequencies(8), deltas),
                 pe::InvalidArgument);
  }
}

TEST(HostileInput, EmptyAndHugeSizesAreRefusedBeforeAllocating) {
  EXPECT_THROW(pe::rope_tables(Eigen::ArrayXd(), 4), pe::InvalidArgument);
  EXPECT_THROW(pe::rope_tables(pe::inverse_frequencies(65536), pe::kMaxLength), pe::MemoryBudgetExceeded);
  EXPECT_THROW(pe::sinusoidal_table(pe::kMaxLength, 65536), pe::MemoryBudgetExceeded);
  EXPECT_THROW(pe::alibi_bias(0.5, pe::kMaxLength), pe::MemoryBudgetExceeded);
  pe::AttentionParams p;
  p.dim = 65536;
  EXPECT_THROW(pe::attention_pattern(pe::AttentionMethod::NoPosition, p), pe::MemoryBudgetExceeded);
  // An empty delta list is a valid, empty curve.
  EXPECT_EQ(pe::long_term_decay_bound(pe::inverse_frequencies(8), Eigen::ArrayXd()).size(), 0);
}

}  // namespace
