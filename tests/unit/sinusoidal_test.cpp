// Sinusoidal encoding against seed 002's loop, recomputed here in double.
#include <gtest/gtest.h>

#include <cmath>

#include "pe/base/errors.hpp"
#include "pe/encodings/sinusoidal.hpp"

namespace {

// Seed 002's get_positional_encoding, transcribed: column i even → sin(pos / 10000^(i/d)),
// column i+1 → cos of the same angle (when it exists).
double seed002_entry(long long pos, long long column, long long d, double base = 10000.0) {
  const long long i = column - column % 2;
  const double angle = static_cast<double>(pos) / std::pow(base, static_cast<double>(i) / static_cast<double>(d));
  return column % 2 == 0 ? std::sin(angle) : std::cos(angle);
}

TEST(Sinusoidal, Seed002TenPositionsEightDims) {
  const pe::TableF t = pe::sinusoidal_table(10, 8);
  ASSERT_EQ(t.rows(), 10);
  ASSERT_EQ(t.cols(), 8);
  for (long long p = 0; p < 10; ++p) {
    for (long long c = 0; c < 8; ++c) EXPECT_NEAR(t(p, c), seed002_entry(p, c, 8), 1e-6) << p << "," << c;
  }
  // Position 0 alternates sin 0 = 0 and cos 0 = 1.
  for (long long c = 0; c < 8; ++c) EXPECT_EQ(t(0, c), c % 2 == 0 ? 0.0f : 1.0f);
  // Position 5, column 0: sin(5); column 2: sin(5 / 10).
  EXPECT_NEAR(t(5, 0), std::sin(5.0), 1e-7);
  EXPECT_NEAR(t(5, 2), std::sin(0.5), 1e-7);
}

TEST(Sinusoidal, ValueMatchesFormula) {
  for (long long c = 0; c < 8; ++c) {
    EXPECT_NEAR(pe::sinusoidal_value(5, c, 8), seed002_entry(5, c, 8), 1e-15);
  }
  EXPECT_NEAR(pe::sinusoidal_value(123, 3, 16, 500.0), seed002_entry(123, 3, 16, 500.0), 1e-13);
}

TEST(Sinusoidal, OddDimensionEndsWithSine) {
  const pe::TableF t = pe::sinusoidal_table(20, 7);
  ASSERT_EQ(t.cols(), 7);
  for (long long p = 0; p < 20; ++p) {
    for (long long c = 0; c < 7; ++c) EXPECT_NEAR(t(p, c), seed002_entry(p, c, 7), 1e-6);
    // Last column (6) is sin(p / 10000^(6/7)).
    EXPECT_NEAR(t(p, 6), std::sin(p / std::pow(10000.0, 6.0 / 7.0)), 1e-6);
  }
  EXPECT_EQ(pe::sinusoidal_frequencies(7).size(), 4);
  const pe::TableF one = pe::sinusoidal_table(3, 1);
  EXPECT_NEAR(one(2, 0), std::sin(2.0), 1e-7);
}

TEST(Sinusoidal, AccurateAtLargePositions) {
  const long long d = 64, first = 999'500, length = 2500;
  const pe::TableF t = pe::sinusoidal_table(length, d, 10000.0, first);
  double worst = 0.0;
  for (long long r = 0; r < length; ++r) {
    for (long long c = 0; c < d; ++c) worst = std::max(worst, std::abs(t(r, c) - seed002_entry(first + r, c, d)));
  }
  EXPECT_LT(worst, 1e-6);
}

TEST(Sinusoidal, FirstPositionShiftsRows) {
  const pe::TableF all = pe::sinusoidal_table(300, 12);
  const pe::TableF tail = pe::sinusoidal_table(100, 12, 10000.0, 200);
  EXPECT_LT((all.bottomRows(100) - tail).abs().maxCoeff(), 1e-6);
}

TEST(Sinusoidal, RejectsBadInput) {
  EXPECT_THROW(pe::sinusoidal_table(0, 8), pe::InvalidArgument);
  EXPECT_THROW(pe::sinusoidal_table(10, 0), pe::InvalidArgument);
  EXPECT_THROW(pe::sinusoidal_table(10, 8, 1.0), pe::InvalidArgument);
  EXPECT_THROW(pe::sinusoidal_table(10, 8, std::nan("")), pe::InvalidArgument);
  EXPECT_THROW(pe::sinusoidal_value(0, 8, 8), pe::InvalidArgument);
  EXPECT_THROW(pe::sinusoidal_value(0, -1, 8), pe::InvalidArgument);
  EXPECT_THROW(pe::sinusoidal_frequencies(70000), pe::InvalidArgument);
}

TEST(Sinusoidal, RefusesOneBillionPositions) {
  EXPECT_THROW(pe::sinusoidal_table(1'000'000'000, 512), pe::MemoryBudgetExceeded);
}

}  // namespace

namespace {

TEST(Sinusoidal, IntoMatchesFreshTable) {
  pe::TableF t;
  pe::sinusoidal_table_into(t, 100, 9);
  pe::sinusoidal_table_into(t, 100, 9, 10000.0, 77);
  EXPECT_TRUE((t == pe::sinusoidal_table(100, 9, 10000.0, 77)).all());
}

}  // namespace
