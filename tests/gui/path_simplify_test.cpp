// Polyline simplification before drawing (plot/path_simplify): every dropped point lies
// within the tolerance (plus the half-tolerance allowed past a segment's end) of the
// polyline drawn instead; ends, peaks and reversals stay; straight and gently curved runs
// collapse to few points. Distances are measured here in double, independently.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "plot/path_simplify.hpp"

namespace {

using plot::detail::kSimplifyTolerance;
using plot::detail::simplify_polyline;

double segment_distance(ImVec2 p, ImVec2 a, ImVec2 b) {
  const double vx = b.x - a.x, vy = b.y - a.y, wx = p.x - a.x, wy = p.y - a.y;
  const double len2 = vx * vx + vy * vy;
  const double t = len2 > 0 ? std::clamp((wx * vx + wy * vy) / len2, 0.0, 1.0) : 0.0;
  return std::hypot(wx - t * vx, wy - t * vy);
}

// The output must be a subsequence of the input with the same ends, and each input point
// must lie within `bound` of the output segment that spans it.
void expect_faithful(const std::vector<ImVec2>& in, const std::vector<ImVec2>& out, double bound) {
  ASSERT_GE(out.size(), 2u);
  EXPECT_EQ(out.front().x, in.front().x);
  EXPECT_EQ(out.back().y, in.back().y);
  std::size_t k = 0;  // out[k] == in[idx[k]]
  std::vector<std::size_t> idx;
  for (std::size_t i = 0; i < in.size() && k < out.size(); ++i)
    if (in[i].x == out[k].x && in[i].y == out[k].y) idx.push_back(i), ++k;
  ASSERT_EQ(idx.size(), out.size()) << "not a subsequence of the input";
  double worst = 0;
  for (std::size_t s = 0; s + 1 < idx.size(); ++s)
    for (std::size_t i = idx[s]; i <= idx[s + 1]; ++i) worst = std::max(worst, segment_distance(in[i], out[s], out[s + 1]));
  EXPECT_LE(worst, bound);
}

TEST(PathSimplify, StraightRunsCollapseToTheirEnds) {
  std::vector<ImVec2> line;
  for (int i = 0; i < 1000; ++i) line.emplace_back(10.0f + 1.3f * i, 50.0f + 0.4f * i);
  const auto in = line;
  simplify_polyline(line);
  EXPECT_EQ(line.size(), 2u);
  expect_faithful(in, line, 1.12 * kSimplifyTolerance);
}

TEST(PathSimplify, SampledCurvesStayWithinTheTolerance) {
  std::mt19937 rng(7);
  std::normal_distribution<double> noise(0.0, 1.0);
  for (int kind = 0; kind < 4; ++kind) {
    std::vector<ImVec2> pts;
    double walk = 300;
    for (int x = 0; x < 1500; ++x) {
      double y = 0;
      switch (kind) {
        case 0: y = 300 + 200 * std::sin(x / 90.0); break;                  // smooth
        case 1: y = 300 + 200 * std::sin(x * 0.9); break;                   // a zig-zag of peaks
        case 2: y = (walk += noise(rng)); break;                            // noisy
        default: y = 300 + 250 * std::exp(-x / 120.0) * std::cos(x / 7.0);  // decaying ripple
      }
      pts.emplace_back(float(50 + x), float(y));
    }
    const auto in = pts;
    simplify_polyline(pts);
    SCOPED_TRACE(kind);
    expect_faithful(in, pts, 1.12 * kSimplifyTolerance);
    if (kind == 0) {
      // A chord within tol of an arc of radius R is ~√(8·tol·R) long: 3–5 px here at the peaks.
      EXPECT_LT(pts.size(), in.size() / 4) << "gentle curves need few points";
    }
  }
}

TEST(PathSimplify, PeaksAndReversalsStay) {
  // A triangle wave: every corner is a turning point the drawn line must reach.
  std::vector<ImVec2> wave;
  for (int i = 0; i <= 40; ++i)
    for (int s = 0; s < 10; ++s) wave.emplace_back(float(10 * i + s), float(i % 2 == 0 ? 100 + 8 * s : 180 - 8 * s));
  const auto in = wave;
  simplify_polyline(wave);
  for (int i = 1; i < 40; ++i) {
    const ImVec2 corner(float(10 * i), i % 2 == 0 ? 100.0f : 180.0f);
    bool found = false;
    for (const ImVec2& p : wave) found = found || (p.x == corner.x && p.y == corner.y);
    EXPECT_TRUE(found) << "corner " << i;
  }
  expect_faithful(in, wave, 1.12 * kSimplifyTolerance);
  // Out along a line and back along it: the far end stays.
  std::vector<ImVec2> there_and_back;
  for (int i = 0; i <= 50; ++i) there_and_back.emplace_back(float(i), 20.0f);
  for (int i = 49; i >= 0; --i) there_and_back.emplace_back(float(i), 20.0f);
  simplify_polyline(there_and_back);
  bool far_end = false;
  for (const ImVec2& p : there_and_back) far_end = far_end || p.x == 50.0f;
  EXPECT_TRUE(far_end);
}

TEST(PathSimplify, ShortPathsAndNoToleranceAreLeftAlone) {
  std::vector<ImVec2> two{{0, 0}, {5, 5}};
  simplify_polyline(two);
  EXPECT_EQ(two.size(), 2u);
  std::vector<ImVec2> line{{0, 0}, {1, 1}, {2, 2}, {3, 3}};
  simplify_polyline(line, 0.0f);
  EXPECT_EQ(line.size(), 4u);
}

}  // namespace
