// Regressions from review: every limit is checked up front (not when a view is drawn),
// sessions naming unknown views are refused, caches see every input, and the scaling,
// extrapolation and compare views have CSV data.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "export/view_data.hpp"
#include "pe/analysis/analysis.hpp"
#include "state/session_file.hpp"
#include "views/scaling_methods.hpp"

namespace {

app::AppState teaching() { return app::default_state(); }

TEST(StateLimits, ValidateStateRejectsWhatViewsCannotDraw) {
  struct Case { const char* name; void (*mutate)(app::AppState&); };
  const Case cases[] = {
      {"samples", [](app::AppState& s) { s.samples = 5'000'000; }},
      {"dim", [](app::AppState& s) { s.rope.head_dim = 40'000; }},
      {"heads", [](app::AppState& s) { s.heads = 100'000'000; }},
      {"learned_max_len", [](app::AppState& s) { s.learned_max_len = 100'000; }},
      {"anchor", [](app::AppState& s) { s.anchor = s.length; }},
      {"play_speed", [](app::AppState& s) { s.play_speed = 1e300; }},
      {"view", [](app::AppState& s) { s.view = "nonexistent"; }},
      {"compare_view", [](app::AppState& s) { s.compare_view = "compare"; }},
      {"compare_b", [](app::AppState& s) { s.compare_b.theta = 0.5; }},
  };
  for (const Case& c : cases) {
    app::AppState s = teaching();
    ASSERT_EQ(app::validate_state(s), "");
    c.mutate(s);
    const std::string error = app::validate_state(s);
    EXPECT_NE(error.find(c.name), std::string::npos) << c.name << " → \"" << error << "\"";
  }
}

TEST(StateLimits, SessionNamingAnUnknownViewIsRefused) {
  std::vector<std::string> warnings;
  EXPECT_THROW(app::session_from_json(R"({"pe_viz_session": 1, "view": "nonexistent"})", teaching(), warnings),
               app::SessionError);
  EXPECT_THROW(app::session_from_json(R"({"pe_viz_session": 1, "samples": 5000000})", teaching(), warnings),
               app::SessionError);
}

TEST(StateLimits, MethodCacheSeesEveryScalingField) {
  pe::RopeConfig c = pe::load_preset("llama-2-7b");
  c.scaling.type = pe::RopeType::Yarn;
  c.scaling.factor = 4.0;
  auto yarn_attention = [](const std::vector<app::MethodFrequencies>& ms) {
    for (const auto& m : ms)
      if (m.type == pe::RopeType::Yarn) return m.freqs.attention_factor;
    return -1.0;
  };
  const double before = yarn_attention(app::all_method_frequencies(c, 8192));
  EXPECT_NEAR(before, 0.1 * std::log(4.0) + 1.0, 1e-12);  // YaRN's default temperature
  c.scaling.attention_factor = 3.0;
  EXPECT_EQ(yarn_attention(app::all_method_frequencies(c, 8192)), 3.0);
}

TEST(StateLimits, RopeAttentionUsesTheScaledFrequencies) {
  pe::AttentionParams p;
  p.length = 24;
  p.dim = 32;
  const pe::TableF plain = pe::attention_pattern(pe::AttentionMethod::Rope, p);
  p.rope_inv_freq = pe::inverse_frequencies(32, 10000.0) / 8.0;  // linear ×8
  const pe::TableF scaled = pe::attention_pattern(pe::AttentionMethod::Rope, p);
  EXPECT_GT((plain - scaled).abs().maxCoeff(), 1e-4);
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

TEST(StateLimits, ScalingExtrapolationAndCompareHaveCsv) {
  app::AppState s = teaching();
  app::apply_preset(s, "llama-2-7b");
  s.length = 8192;
  app::Derived d;
  app::update_derived(s, d);
  ASSERT_EQ(d.error, "");
  for (const char* view : {"scaling", "extrapolation", "compare"}) {
    const auto csv = lines(app::view_csv(view, s, d));
    ASSERT_GE(csv.size(), 2u + 64u) << view;  // comment, header, one row per pair
    EXPECT_EQ(csv[0].rfind("#", 0), 0u) << view;
    EXPECT_EQ(csv[1].rfind("pair,", 0), 0u) << view;
  }
  // scaling: the linear column is θ_i / factor (factor 4 when the model is unscaled).
  const auto scaling = lines(app::view_csv("scaling", s, d));
  std::vector<std::string> header;
  std::stringstream hs(scaling[1]);
  for (std::string cell; std::getline(hs, cell, ',');) header.push_back(cell);
  const auto linear = std::find(header.begin(), header.end(), "linear (PI)") - header.begin();
  ASSERT_LT(std::size_t(linear), header.size());
  for (int i : {0, 10, 63}) {
    std::vector<std::string> row;
    std::stringstream rs(scaling[2 + i]);
    for (std::string cell; std::getline(rs, cell, ',');) row.push_back(cell);
    const double theta_i = std::pow(10000.0, -2.0 * i / 128.0);
    EXPECT_NEAR(std::stod(row[std::size_t(linear)]), theta_i / 4.0, 1e-8 * theta_i) << "pair " << i;
  }
}

}  // namespace
