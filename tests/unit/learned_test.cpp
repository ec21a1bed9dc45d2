// Learned absolute position table: seeded, N(0, sigma), and no row past max_len.
#include <gtest/gtest.h>

#include <cmath>

#include "pe/base/errors.hpp"
#include "pe/encodings/learned.hpp"

namespace {

TEST(Learned, ShapeAndParameterCount) {
  // Seed 000: 2048 × 256 = 524,288 parameters.
  const pe::LearnedEmbedding e(2048, 256);
  EXPECT_EQ(e.max_len(), 2048);
  EXPECT_EQ(e.dim(), 256);
  EXPECT_EQ(e.parameter_count(), 524288);
  EXPECT_DOUBLE_EQ(e.sigma(), 0.02);
}

TEST(Learned, SeededAndDeterministic) {
  const pe::LearnedEmbedding a(64, 16, 0.02, 7), b(64, 16, 0.02, 7), c(64, 16, 0.02, 8);
  EXPECT_TRUE((a.table() == b.table()).all());
  EXPECT_FALSE((a.table() == c.table()).all());
}

TEST(Learned, MomentsMatchSigma) {
  const pe::LearnedEmbedding e(512, 128, 0.5, 3);
  const double n = static_cast<double>(e.table().size());
  const double mean = e.table().cast<double>().sum() / n;
  const double var = (e.table().cast<double>() - mean).square().sum() / n;
  EXPECT_NEAR(mean, 0.0, 0.01);           // ~6 standard errors
  EXPECT_NEAR(std::sqrt(var), 0.5, 0.005);
  EXPECT_TRUE(e.table().isFinite().all());
}

TEST(Learned, RowsAndAt) {
  const pe::LearnedEmbedding e(10, 4, 0.02, 1);
  const Eigen::VectorXf r3 = e.at(3);
  for (int c = 0; c < 4; ++c) EXPECT_EQ(r3[c], e.table()(3, c));
  const pe::TableF rows = e.rows(8, 2);
  EXPECT_TRUE((rows.row(0) == e.table().row(8)).all());
  EXPECT_TRUE((rows.row(1) == e.table().row(9)).all());
}

TEST(Learned, RefusesPositionAtMaxLen) {
  const pe::LearnedEmbedding e(64, 8);
  try {
    e.at(64);
    FAIL() << "position 64 accepted";
  } catch (const pe::PositionOutOfRange& ex) {
    EXPECT_STREQ(ex.what(), "position 64 is past max_len 64: a learned table has no row for it (positions 0 ... 63)");
    EXPECT_EQ(ex.position(), 64);
    EXPECT_EQ(ex.max_len(), 64);
  }
  EXPECT_THROW(e.at(-1), pe::PositionOutOfRange);
  EXPECT_THROW(e.rows(60, 5), pe::PositionOutOfRange);
  EXPECT_THROW(e.rows(-2, 5), pe::PositionOutOfRange);
  EXPECT_THROW(e.rows(0, pe::kMaxLength), pe::PositionOutOfRange);
  EXPECT_NO_THROW(e.rows(0, 64));
}

TEST(Learned, RejectsBadConstruction) {
  EXPECT_THROW(pe::LearnedEmbedding(0, 8), pe::InvalidArgument);
  EXPECT_THROW(pe::LearnedEmbedding(8, 0), pe::InvalidArgument);
  EXPECT_THROW(pe::LearnedEmbedding(8, 8, 0.0), pe::InvalidArgument);
  EXPECT_THROW(pe::LearnedEmbedding(8, 8, -0.02), pe::InvalidArgument);
  EXPECT_THROW(pe::LearnedEmbedding(8, 8, std::nan("")), pe::InvalidArgument);
  EXPECT_THROW(pe::LearnedEmbedding(1'000'000'000, 768), pe::MemoryBudgetExceeded);
}

TEST(Learned, SeededNormal) {
  const Eigen::VectorXd a = pe::seeded_normal(1001, 5), b = pe::seeded_normal(1001, 5);
  EXPECT_EQ(a, b);
  EXPECT_EQ(pe::seeded_normal(0, 5).size(), 0);
  EXPECT_THROW(pe::seeded_normal(-1, 5), pe::InvalidArgument);
  EXPECT_THROW(pe::seeded_normal(4, 5, 0.0), pe::InvalidArgument);
}

}  // namespace
