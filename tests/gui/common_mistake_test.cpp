// The common-mistake view's two convention mixes (SEED-ERRATA 3 and 8) through the app:
// the `mistake` parameter picks the mix (half-split-cache, interleaved-cache), its CSV
// carries the erratum's numbers for the d = 4 worked example's vector, and the choice
// survives a session round trip. No window needed. (Old value names: legacy_names_test.)
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "export/view_data.hpp"
#include "state/app_state.hpp"
#include "state/derived.hpp"
#include "state/session_file.hpp"

namespace {

// Row `position` of the common-mistake CSV as numbers (position, rope, mix).
std::vector<double> csv_row(const std::string& csv, long long position) {
  std::istringstream lines(csv);
  std::string line;
  std::getline(lines, line);  // header
  while (std::getline(lines, line)) {
    std::vector<double> cells;
    std::istringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(std::stod(cell));
    if (!cells.empty() && cells[0] == double(position)) return cells;
  }
  return {};
}

app::AppState worked_example(const std::string& mistake) {
  app::AppState s = app::default_state();
  s.view = "common-mistake";
  s.mistake = mistake;
  s.rope.head_dim = 4;
  s.rope.theta = 10000.0;
  s.length = 128;
  s.vector = {0.8, 0.3, -0.5, 0.2};  // seed 001's worked-example query
  return s;
}

TEST(CommonMistakeTest, InterleavedCacheMixCarriesTheErratumsNorms) {
  const app::AppState s = worked_example("interleaved-cache");
  ASSERT_EQ(app::validate_state(s), "");
  app::Derived d;
  app::update_derived(s, d);
  const std::string csv = app::view_csv("common-mistake", s, d);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "position,rope_norm_ratio,interleaved_cache_norm_ratio");
  // SEED-ERRATA 8: ‖q‖ = 1.00995 becomes 1.00541 at p = 1, 0.94670 at p = 3, 0.78272 at p = 100.
  const double norm = 1.0099504938362078;
  const struct { long long p; double expected; } rows[] = {{1, 1.00541}, {3, 0.94670}, {100, 0.78272}};
  for (const auto& r : rows) {
    const std::vector<double> row = csv_row(csv, r.p);
    ASSERT_EQ(row.size(), 3u) << "p = " << r.p;
    EXPECT_NEAR(row[1], 1.0, 1e-8) << "the rotation keeps the norm, p = " << r.p;
    EXPECT_NEAR(row[2] * norm, r.expected, 6e-6) << "p = " << r.p;
  }
}

TEST(CommonMistakeTest, HalfSplitCacheRemainsTheDefaultAndTheMixesDiffer) {
  app::AppState a = worked_example("interleaved-cache"), b = worked_example("half-split-cache");
  EXPECT_EQ(app::default_state().mistake, "half-split-cache");
  app::Derived da, db;
  app::update_derived(a, da);
  app::update_derived(b, db);
  const std::string csv_b = app::view_csv("common-mistake", b, db);
  EXPECT_EQ(csv_b.substr(0, csv_b.find('\n')), "position,rope_norm_ratio,half_split_cache_norm_ratio");
  EXPECT_NE(csv_row(app::view_csv("common-mistake", a, da), 3)[2], csv_row(csv_b, 3)[2]);
}

TEST(CommonMistakeTest, MistakeSurvivesASessionAndBadValuesAreNamed) {
  const app::AppState s = worked_example("interleaved-cache");
  std::vector<std::string> warnings;
  const app::AppState back = app::session_from_json(app::session_to_json(s), app::default_state(), warnings);
  EXPECT_EQ(back.mistake, "interleaved-cache");
  EXPECT_TRUE(warnings.empty());
  app::AppState bad = s;
  bad.mistake = "seed-002";
  const std::string error = app::validate_state(bad);
  EXPECT_NE(error.find("mistake"), std::string::npos) << error;
  EXPECT_NE(error.find("interleaved-cache"), std::string::npos) << error;
  EXPECT_NE(error.find("half-split-cache"), std::string::npos) << error;
}

}  // namespace
