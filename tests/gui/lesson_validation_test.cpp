// Lessons and animations against the app (export/lesson_validation.hpp): the keys are the
// command-line options, values go through apply_overrides, and a refused value names the
// lesson file, the line and the key. No window needed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "export/state_options.hpp"
#include "export/lesson_validation.hpp"
#include "pe/base/errors.hpp"
#include "views/view.hpp"

namespace {

namespace fs = std::filesystem;

pe::Lesson checked(const std::string& text, const std::string& file = "talk.md") {
  pe::Lesson l = pe::parse_lesson(text, file);
  pe::check_lesson(l, app::lesson_parameters());
  return l;
}

pe::LessonError apply_error(const std::string& text, std::size_t slide = 0) {
  app::AppState s = app::default_state();
  try {
    pe::Lesson l = checked(text);
    for (std::size_t k = 0; k <= slide; ++k) app::apply_slide_settings(s, l, k);
  } catch (const pe::LessonError& e) {
    return e;
  }
  ADD_FAILURE() << "accepted:\n" << text;
  return pe::LessonError("", 0, "", "");
}

TEST(LessonParameters, EveryCommandLineStateOptionWithAValueIsAKey) {
  // The table is written by hand beside StateOverrides: every option of add_state_options
  // that takes a value must be a lesson key (flags are the lecturer's display choices).
  CLI::App cli;
  app::StateOverrides o;
  app::add_state_options(cli, o);
  const pe::ParameterTable& table = app::lesson_parameters();
  for (const CLI::Option* opt : cli.get_options()) {
    if (opt->get_expected_max() == 0 || opt->get_lnames().empty()) continue;  // flags, help
    const std::string key = opt->get_lnames().front();
    EXPECT_NE(table.find(key), nullptr) << "--" << key << " is not a lesson key";
  }
  EXPECT_EQ(table.views.size(), app::all_views().size());
  EXPECT_EQ(table.find("theta")->default_scale, pe::AnimationScale::Log);
  EXPECT_EQ(table.find("length")->default_scale, pe::AnimationScale::Log);
  EXPECT_EQ(table.find("position")->kind, pe::ParameterInfo::Kind::Integer);
  EXPECT_EQ(table.find("dim")->step, 2);
  EXPECT_FALSE(table.find("scaling")->animatable);
  EXPECT_FALSE(table.find("ui-scale")->animatable);
}

TEST(ApplySlide, SetsTheStateLikeTheCommandLine) {
  const pe::Lesson l = checked(
      "view: rope-cos\ntheta: 500000\ndim: 128\nlength: 8192\nposition: 3\n---\n"
      "view: clock-hands\nposition: 7\n---\n"
      "view: scaling\npreset: llama-3.1-8b\nanimate: position 0 -> 64 over 2 s\n");
  app::AppState cli = app::default_state();
  app::StateOverrides o;
  o.view = "rope-cos";
  o.theta = 500000;
  o.dim = 128;
  o.length = 8192;
  o.position = 3;
  app::apply_overrides(cli, o);
  const app::AppState first = app::slide_state(l, 0, app::default_state());
  EXPECT_EQ(first.view, cli.view);
  EXPECT_EQ(first.rope.theta, cli.rope.theta);
  EXPECT_EQ(first.rope.head_dim, 128);
  EXPECT_EQ(first.length, 8192);
  EXPECT_EQ(first.position, 3);
  EXPECT_TRUE(first.preset.empty());  // custom numbers are no longer the preset
  // Settings carry over: slide 2 changes the view and the position only.
  const app::AppState second = app::slide_state(l, 1, app::default_state());
  EXPECT_EQ(second.view, "clock-hands");
  EXPECT_EQ(second.rope.theta, 500000.0);
  EXPECT_EQ(second.position, 7);
  // A preset brings its own numbers; the slide's animation starts at its first value.
  const app::AppState third = app::slide_state(l, 2, app::default_state());
  EXPECT_EQ(third.preset, "llama-3.1-8b");
  EXPECT_EQ(third.rope.theta, 500000.0);  // Llama 3.1's rope_theta (config.json)
  EXPECT_EQ(third.position, 0);
}

TEST(ApplySlide, RefusedValuesNameLineAndKey) {
  struct Case {
    std::string text;
    std::size_t slide;
    int line;
    std::string key, part;
  };
  const std::vector<Case> cases = {
      {"view: rope-cos\ntheta: 0.5\n", 0, 2, "theta", "'0.5': the base must be finite and > 1"},
      {"view: rope-cos\ndim: 7\n", 0, 2, "dim", "even dimension"},
      {"view: rope-cos\nscaling: cubic\n", 0, 2, "scaling", "'cubic'"},
      {"view: rope-cos\npreset: llama-9\n", 0, 2, "preset", "llama-9\"': one of the bundled presets"},
      {"view: rope-cos\nlength: 64\nposition: 100\n", 0, 3, "position", "'100': must be 0 ... 63"},
      // A consequence of an earlier slide (head 12 of 16, then 8 heads): the slide's first line.
      {"view: alibi\nheads: 16\nhead: 12\n---\nview: alibi\nheads: 8\n", 1, 5, "head", "'12': must be 1 ... 8"},
      {"view: rope-cos\nconfig: missing-config.json\n", 0, 2, "config", "missing-config.json"},
  };
  for (const auto& c : cases) {
    const pe::LessonError e = apply_error(c.text, c.slide);
    EXPECT_EQ(e.file(), "talk.md");
    EXPECT_EQ(e.line(), c.line) << c.text << "\n" << e.what();
    EXPECT_EQ(e.key(), c.key) << c.text << "\n" << e.what();
    EXPECT_NE(e.message().find(c.part), std::string::npos) << c.text << "\n" << e.what();
  }
}

TEST(ApplySlide, ConfigPathIsRelativeToTheLesson) {
  const fs::path dir = fs::temp_directory_path() / "pe_viz_lesson_validation_test";
  fs::create_directories(dir / "models");
  {
    std::ofstream cfg(dir / "models" / "tiny.json");
    cfg << R"({"rope_theta": 20000, "head_dim": 32, "max_position_embeddings": 512})";
    std::ofstream lesson(dir / "talk.md");
    lesson << "view: rope-cos\nconfig: models/tiny.json\n";
  }
  const pe::Lesson l = app::load_checked_lesson(dir / "talk.md");
  const app::AppState s = app::slide_state(l, 0, app::default_state());
  EXPECT_EQ(s.rope.theta, 20000.0);
  EXPECT_EQ(s.rope.head_dim, 32);
  EXPECT_EQ(s.length, 512);
  fs::remove_all(dir);
}

TEST(ApplyTracks, ValuesThroughTheStateChecks) {
  app::AppState s = app::default_state();
  const pe::AnimationTrack pos = app::animate_option("position=0:64");
  const pe::AnimationTrack theta = app::animate_option("theta=100:1e6");  // log by default
  app::apply_tracks(s, {pos, theta}, 0.5);
  EXPECT_EQ(s.position, 32);
  EXPECT_NEAR(s.rope.theta, 1e4, 1e-6);
  app::apply_tracks(s, {pos, theta}, 1.0);
  EXPECT_EQ(s.position, 64);
  EXPECT_EQ(s.rope.theta, 1e6);
  // Past the state's limits: refused with the key named, state unchanged.
  const pe::AnimationTrack far = app::animate_option("position=0:500");
  const app::AppState before = s;
  try {
    app::apply_tracks(s, {far}, 1.0);
    ADD_FAILURE();
  } catch (const pe::InvalidArgument& e) {
    EXPECT_EQ(e.parameter(), "position");
    EXPECT_EQ(e.value(), "500");
    EXPECT_NE(e.allowed().find("0 ... 127"), std::string::npos) << e.what();
  }
  EXPECT_EQ(s.position, before.position);
  // Only numeric, animatable keys.
  EXPECT_THROW(app::animate_option("view=0:1"), pe::AnimationError);
  EXPECT_THROW(app::animate_option("ui-scale=1:2"), pe::AnimationError);
  try {
    app::animate_option("thetaa=1:2");
    ADD_FAILURE();
  } catch (const pe::AnimationError& e) {
    EXPECT_EQ(e.key(), "thetaa");
    EXPECT_NE(std::string(e.what()).find("did you mean theta?"), std::string::npos) << e.what();
  }
}

}  // namespace
