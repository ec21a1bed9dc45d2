// SEED-ERRATA 8: seed 001's code mixes an interleaved cache with a half-split rotate_half.
// Golden numbers are the erratum's (checked there in double with the seed's own vectors).
#include <gtest/gtest.h>

#include <cmath>

#include "pe/base/errors.hpp"
#include "pe/encodings/rope.hpp"
#include "pe/analysis/interleaved_cache_mix.hpp"

namespace {

const Eigen::Vector4d kQ(0.8, 0.3, -0.5, 0.2);  // seed 001's worked-example query
const Eigen::Vector4d kK(0.1, -0.4, 0.7, 0.2);  // the erratum's key

Eigen::VectorXd mixed(const Eigen::VectorXd& x, double p) {
  return pe::apply_interleaved_cache_mix(x, p, pe::inverse_frequencies(4, 10000.0));
}

TEST(InterleavedCacheMix, NormChangesAsTheErratumMeasures) {
  EXPECT_NEAR(kQ.norm(), 1.00995, 5e-6);
  EXPECT_NEAR(mixed(kQ, 1).norm(), 1.00541, 5e-6);
  EXPECT_NEAR(mixed(kQ, 3).norm(), 0.94670, 5e-6);
  EXPECT_NEAR(mixed(kQ, 100).norm(), 0.78272, 5e-6);
}

TEST(InterleavedCacheMix, ScoreDependsOnAbsolutePositionAsTheErratumMeasures) {
  EXPECT_NEAR(mixed(kQ, 1).dot(mixed(kK, 3)), -0.47855, 5e-6);
  EXPECT_NEAR(mixed(kQ, 11).dot(mixed(kK, 13)), -0.24439, 5e-6);
}

TEST(InterleavedCacheMix, KeepingRotateHalfWithACatCacheIsTheHalfSplitRotation) {
  // The erratum's "correct rotation gives −0.52510 for both": the fix that keeps rotate_half.
  const Eigen::ArrayXd inv = pe::inverse_frequencies(4, 10000.0);
  const auto rot = [&](const Eigen::VectorXd& x, double p) { return pe::apply_rope(x, p, inv, pe::PairConvention::HalfSplit); };
  EXPECT_NEAR(rot(kQ, 1).dot(rot(kK, 3)), -0.52510, 5e-6);
  EXPECT_NEAR(rot(kQ, 11).dot(rot(kK, 13)), -0.52510, 5e-6);
  // The other fix (an interleaved rotate_half, as the docstring describes) rotates other
  // pairs of dims: also relative, with another value.
  const auto inter = [&](const Eigen::VectorXd& x, double p) { return pe::apply_rope(x, p, inv, pe::PairConvention::Interleaved); };
  EXPECT_NEAR(inter(kQ, 1).dot(inter(kK, 3)), inter(kQ, 11).dot(inter(kK, 13)), 1e-12);
}

TEST(InterleavedCacheMix, FollowsTheBuggyCodeDimByDim) {
  // Written out for d = 4 (θ₀ = 1, θ₁ = 0.01): dims 0, 1 turn with θ₀, dims 2, 3 with θ₁;
  // rotate_half pairs 0 with 2 and 1 with 3.
  const double p = 2.5, a = p * 1.0, b = p * 0.01;
  const Eigen::VectorXd y = mixed(kQ, p);
  EXPECT_NEAR(y[0], kQ[0] * std::cos(a) - kQ[2] * std::sin(a), 1e-15);
  EXPECT_NEAR(y[1], kQ[1] * std::cos(a) - kQ[3] * std::sin(a), 1e-15);
  EXPECT_NEAR(y[2], kQ[2] * std::cos(b) + kQ[0] * std::sin(b), 1e-15);
  EXPECT_NEAR(y[3], kQ[3] * std::cos(b) + kQ[1] * std::sin(b), 1e-15);
}

TEST(InterleavedCacheMix, PositionZeroIsTheIdentityAndBadInputIsRefused) {
  EXPECT_EQ(mixed(kQ, 0), Eigen::VectorXd(kQ));
  EXPECT_THROW(pe::apply_interleaved_cache_mix(Eigen::VectorXd::Zero(6), 1.0, pe::inverse_frequencies(4, 10000.0)),
               pe::InvalidArgument);
  EXPECT_THROW(mixed(Eigen::Vector4d(0, NAN, 0, 0), 1.0), pe::InvalidArgument);
  EXPECT_THROW(mixed(kQ, INFINITY), pe::InvalidArgument);
}

}  // namespace
