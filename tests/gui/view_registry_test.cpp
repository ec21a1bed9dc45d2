// The view registry is the one place a view is described (issue 16): every registered view
// brings its drawing, its CSV, its formula lines and the parameters a lesson may animate,
// and nothing outside the registry compares view names. No window needed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <imgui.h>
#include <imgui_internal.h>

#include "export/view_data.hpp"
#include "headless_imgui.hpp"
#include "plot/imgui_theme.hpp"
#include "state/app_state.hpp"
#include "state/derived.hpp"
#include "state/session_file.hpp"
#include "ui/formula_strip.hpp"
#include "views/view.hpp"

namespace {

namespace fs = std::filesystem;

// Session keys with a number as value, rope's nested keys flattened (theta, dim, factor,
// ...): the names a lesson or an animation export can set to a number.
void collect_numeric_keys(const nlohmann::json& j, std::set<std::string>& keys) {
  for (const auto& [k, v] : j.items()) {
    if (v.is_number()) keys.insert(k);
    if (k == "rope" || k == "scaling") collect_numeric_keys(v, keys);
  }
}

std::set<std::string> numeric_session_keys() {
  std::set<std::string> keys;
  collect_numeric_keys(nlohmann::json::parse(app::session_to_json(app::default_state())), keys);
  return keys;
}

TEST(ViewRegistryTest, EveryViewBringsItsDrawingDataAndFormula) {
  const std::set<std::string> numeric = numeric_session_keys();
  ASSERT_TRUE(numeric.count("theta") && numeric.count("dim") && numeric.count("position")) << "session layout changed";
  for (const app::ViewInfo& v : app::all_views()) {
    SCOPED_TRACE(v.name);
    EXPECT_TRUE(v.draw) << "no drawing";
    ASSERT_TRUE(v.csv) << "no CSV";
    ASSERT_TRUE(v.formula) << "no formula";
    EXPECT_NE(std::string(v.title), "");
    EXPECT_NE(std::string(v.summary), "");
    EXPECT_EQ(v.step == nullptr, v.step_help == nullptr) << "a view's own arrow step needs its F1 line, and vice versa";
    EXPECT_FALSE(v.animatable.empty()) << "no parameter a lesson could animate";
    for (const char* key : v.animatable) EXPECT_TRUE(numeric.count(key)) << key << " is not a numeric session key";

    app::AppState s = app::default_state();
    s.view = v.name;
    app::Derived d;
    app::update_derived(s, d);
    ASSERT_EQ(d.error, "");
    const std::string csv = app::view_csv(v.name, s, d);
    std::istringstream lines(csv);
    std::string line;
    int data_lines = 0;
    while (std::getline(lines, line))
      if (!line.empty() && line[0] != '#') ++data_lines;
    EXPECT_GE(data_lines, 2) << "a CSV is a header and at least one row:\n" << csv;

    const std::vector<std::string> formula = app::view_formula(v.name, s, d);
    ASSERT_FALSE(formula.empty());
    for (const auto& f : formula) EXPECT_FALSE(f.empty());
  }
}

// Every character a view's title, summary and formula strip use is in pe-viz's font atlas:
// a missing one is drawn as '?' (relative-score's q̃ and k̃ were, before the combining
// diacritics joined math_glyph_ranges).
TEST(ViewRegistryTest, EveryViewsTextIsInTheFont) {
  ImGui::CreateContext();
  if (!plot::build_font_atlas(16.0f)) {
    ImGui::DestroyContext();
    GTEST_SKIP() << "DejaVu Sans is not installed";
  }
  const ImFont* font = ImGui::GetIO().Fonts->Fonts[0];
  for (const app::ViewInfo& v : app::all_views()) {
    SCOPED_TRACE(v.name);
    app::AppState s = app::default_state();
    s.view = v.name;
    app::Derived d;
    app::update_derived(s, d);
    std::vector<std::string> texts = app::view_formula(v.name, s, d);
    texts.push_back(v.title);
    texts.push_back(v.summary);
    for (const std::string& text : texts)
      for (const char* p = text.c_str(); *p;) {
        unsigned int c = 0;
        p += ImTextCharFromUtf8(&c, p, nullptr);
        if (c != '\n') {
          EXPECT_NE(font->FindGlyphNoFallback(static_cast<ImWchar>(c)), nullptr) << "U+" << std::hex << c << " in: " << text;
        }
      }
  }
  ImGui::DestroyContext();
}

// compare's sides leave the inner view's teaching note out: no text and no height reserved,
// and the notes come back when the scope ends (nested scopes restore the outer state).
TEST(ViewRegistryTest, TeachingNotesCanBeLeftOutForAScope) {
  const pe_test::HeadlessImGui imgui;
  ImGui::NewFrame();
  ImGui::Begin("w");
  const char* note = "A note long enough to wrap over several lines in a window this narrow, as views' notes do.";
  const float shown = app::teaching_note_height(note);
  EXPECT_GT(shown, ImGui::GetFontSize());
  {
    const app::TeachingNotesHidden outer;
    EXPECT_EQ(app::teaching_note_height(note), 0.0f);
    const float y = ImGui::GetCursorPosY();
    app::teaching_note(note);
    EXPECT_EQ(ImGui::GetCursorPosY(), y) << "nothing drawn";
    {
      const app::TeachingNotesHidden inner;
      EXPECT_EQ(app::teaching_note_height(note), 0.0f);
    }
    EXPECT_EQ(app::teaching_note_height(note), 0.0f) << "the outer scope still hides";
  }
  EXPECT_EQ(app::teaching_note_height(note), shown);
  ImGui::End();
  ImGui::EndFrame();
}

TEST(ViewRegistryTest, StepsFollowTheViewThatDefinesThem) {
  app::AppState s = app::default_state();
  for (const app::ViewInfo& v : app::all_views()) {
    s.view = v.name;
    s.grid = false;
    const app::AppState before = s;
    app::step_view(s, +1);
    if (v.step) {
      EXPECT_EQ(s.position, before.position) << v.name << ": its own step must not move the position";
    } else {
      EXPECT_EQ(s.position, before.position + 1) << v.name;
      app::step_view(s, -1);
    }
    EXPECT_EQ(s.position, before.position) << v.name;
  }
}

// Comparisons of something named *view* or *name* with a registered view's name (or any
// `view == "`), in C++ source text. Other keys that share a view's name ("scaling" the
// session key) are not view names.
std::vector<std::string> view_name_comparisons(const std::string& text, const std::vector<std::string>& names) {
  std::string alternatives;
  for (const auto& n : names) alternatives += (alternatives.empty() ? "" : "|") + std::regex_replace(n, std::regex(R"([.\-])"), R"(\$&)");
  const std::string names_re = "\"(" + alternatives + ")\"";
  const std::regex compared("(view|name)[\\w\\]\\)]*\\s*(==|!=)\\s*" + names_re + "|" + names_re + "\\s*(==|!=)\\s*[\\w.>-]*(view|name)" +
                                "|strcmp\\([^;]*" + names_re + "|view == \"",
                            std::regex::icase);
  std::vector<std::string> found;
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (std::regex_search(line, compared)) found.push_back(std::to_string(n) + ": " + line);
  return found;
}

std::vector<std::string> registered_names() {
  std::vector<std::string> names;
  for (const app::ViewInfo& v : app::all_views()) names.emplace_back(v.name);
  return names;
}

TEST(ViewRegistryTest, TheNameComparisonScannerFindsComparisons) {
  const auto names = registered_names();
  EXPECT_EQ(view_name_comparisons("if (s.view == \"walkthrough\") x();", names).size(), 1u);
  EXPECT_EQ(view_name_comparisons("if (\"compare\" != name) x();", names).size(), 1u);
  EXPECT_EQ(view_name_comparisons("std::strcmp(v.name, \"compare\") != 0", names).size(), 1u);
  EXPECT_EQ(view_name_comparisons("if (view == \"some-future-view\") x();", names).size(), 1u);
  EXPECT_EQ(view_name_comparisons("if (inner->name != \"compare\") x();", names).size(), 1u);
  EXPECT_TRUE(view_name_comparisons(".name = \"walkthrough\",\nfind_view(\"rope-cos\")", names).empty());
  EXPECT_TRUE(view_name_comparisons("else if (rk == \"scaling\") read(rv);", names).empty());
}

TEST(ViewRegistryTest, NothingOutsideTheRegistryComparesViewNames) {
  const auto names = registered_names();
  const fs::path app_dir = fs::path(PE_SOURCE_DIR) / "app";
  ASSERT_TRUE(fs::is_directory(app_dir));
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(app_dir)) {
    const fs::path& p = entry.path();
    if (p.extension() != ".cpp" && p.extension() != ".hpp") continue;
    if (p.filename() == "view_registry.cpp") continue;
    ++files;
    std::ifstream in(p);
    std::stringstream text;
    text << in.rdbuf();
    for (const auto& hit : view_name_comparisons(text.str(), names))
      ADD_FAILURE() << fs::relative(p, PE_SOURCE_DIR).string() << ":" << hit
                    << "\n  ask the view registry (ViewInfo) instead of comparing view names";
  }
  EXPECT_GT(files, 50);
}

}  // namespace
