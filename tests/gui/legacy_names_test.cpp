// Names earlier releases (up to 0.3.0) wrote: the `mistake` values seed-004 / seed-001 and the
// session key seed003_sign. They still load — from a session file, a link's fragment, a
// lesson and the command line — as today's half-split-cache / interleaved-cache and
// mirrored_rotation, and nothing writes them any more. No window needed.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "export/state_options.hpp"
#include "cli/url_fragment.hpp"
#include "export/lesson_validation.hpp"
#include "state/app_state.hpp"
#include "state/session_file.hpp"

namespace {

// A session as 0.3.0 wrote it (only the keys that matter here; the rest keep their defaults).
std::string old_session(const std::string& mistake, bool sign) {
  return std::string(R"({"pe_viz_session": 1, "view": "common-mistake", "mistake": ")") + mistake +
         R"(", "seed003_sign": )" + (sign ? "true" : "false") + "}";
}

TEST(LegacyNames, AnOldSessionFileOpensWithTodaysNames) {
  std::vector<std::string> warnings;
  const app::AppState a = app::session_from_json(old_session("seed-001", true), app::default_state(), warnings);
  EXPECT_EQ(a.mistake, "interleaved-cache");
  EXPECT_TRUE(a.mirrored_rotation);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  EXPECT_EQ(app::validate_state(a), "");
  const app::AppState b = app::session_from_json(old_session("seed-004", false), a, warnings);
  EXPECT_EQ(b.mistake, "half-split-cache");
  EXPECT_FALSE(b.mirrored_rotation);
}

TEST(LegacyNames, SavedSessionsUseOnlyTodaysNames) {
  app::AppState s = app::default_state();
  s.mistake = "interleaved-cache";
  s.mirrored_rotation = true;
  const std::string text = app::session_to_json(s);
  EXPECT_NE(text.find("\"mirrored_rotation\": true"), std::string::npos) << text;
  EXPECT_NE(text.find("\"interleaved-cache\""), std::string::npos) << text;
  EXPECT_EQ(text.find("seed0"), std::string::npos) << text;
  EXPECT_EQ(text.find("seed-0"), std::string::npos) << text;
  std::vector<std::string> warnings;
  const app::AppState back = app::session_from_json(text, app::default_state(), warnings);
  EXPECT_EQ(back.mistake, "interleaved-cache");
  EXPECT_TRUE(back.mirrored_rotation);
}

TEST(LegacyNames, AnOldLinkOpensAndIsWrittenBackWithTodaysValue) {
  for (const auto& [old_value, value] : {std::pair<std::string, std::string>{"seed-001", "interleaved-cache"},
                                         {"seed-004", "half-split-cache"}}) {
    app::AppState s = app::default_state();
    const auto problems = app::apply_url_fragment(s, "view=common-mistake&mistake=" + old_value);
    EXPECT_TRUE(problems.empty()) << old_value;
    EXPECT_EQ(s.view, "common-mistake");
    EXPECT_EQ(s.mistake, value);
    const std::string written = app::url_fragment_for(s);
    EXPECT_EQ(written.find(old_value), std::string::npos) << written;
  }
  app::AppState s = app::default_state();
  s.mistake = "interleaved-cache";
  EXPECT_NE(app::url_fragment_for(s).find("mistake=interleaved-cache"), std::string::npos) << app::url_fragment_for(s);
}

TEST(LegacyNames, AnOldLessonValueStillLoads) {
  pe::Lesson l = pe::parse_lesson("view: common-mistake\nmistake: seed-001\n---\nview: common-mistake\nmistake: seed-004\n", "old.md");
  pe::check_lesson(l, app::lesson_parameters());
  EXPECT_EQ(app::slide_state(l, 0, app::default_state()).mistake, "interleaved-cache");
  EXPECT_EQ(app::slide_state(l, 1, app::default_state()).mistake, "half-split-cache");
}

TEST(LegacyNames, TheCommandLineTakesOldValuesButItsHelpShowsTodaysOnly) {
  app::StateOverrides o;
  CLI::App cli{"test", "pe-viz"};
  app::add_state_options(cli, o);
  const char* argv[] = {"pe-viz", "--mistake", "seed-001"};
  cli.parse(3, argv);
  app::AppState s = app::default_state();
  app::apply_overrides(s, o);
  EXPECT_EQ(s.mistake, "interleaved-cache");
  const std::string help = cli.help();
  EXPECT_NE(help.find("half-split-cache"), std::string::npos) << help;
  EXPECT_EQ(help.find("seed-0"), std::string::npos) << help;
}

TEST(LegacyNames, AnUnknownValueIsStillRefusedWithTodaysNames) {
  app::AppState s = app::default_state();
  app::StateOverrides o;
  o.mistake = "seed-002";
  try {
    app::apply_overrides(s, o);
    FAIL() << "accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("half-split-cache or interleaved-cache"), std::string::npos) << e.what();
  }
}

}  // namespace
