// The built-in lessons (assets/lessons/*.md, embedded): each parses, passes check_lesson
// against lesson_parameters() (every key, value, view and animation), applies slide by
// slide through apply_overrides (so every preset exists and every value is in range at
// both ends of every animation), and has the shape a lecture needs (text and notes on
// every slide, some motion). No window needed.
#include <gtest/gtest.h>

#include <set>

#include "export/builtin_lessons.hpp"
#include "export/lesson_export.hpp"
#include "export/lesson_validation.hpp"
#include "state/app_state.hpp"
#include "views/view.hpp"

namespace {

TEST(BuiltinLessons, TheLessonsShipInTeachingOrder) {
  const auto& lessons = app::builtin_lessons();
  ASSERT_GE(lessons.size(), 3u);
  EXPECT_EQ(lessons[0].name, "positional-encoding-101");
  EXPECT_EQ(lessons[1].name, "rope-scaling-in-practice");
  EXPECT_EQ(lessons[2].name, "multimodal-rope");
  ASSERT_GE(lessons.size(), 4u);
  EXPECT_EQ(lessons[3].name, "relative-positions");
  for (const auto& l : lessons) {
    EXPECT_EQ(app::find_builtin_lesson(l.name), &l);
    EXPECT_FALSE(l.title.empty()) << l.name;
    EXPECT_NE(l.title, l.name) << l.name << ": the title comes from the first heading";
    EXPECT_FALSE(l.markdown.empty());
  }
  EXPECT_EQ(app::find_builtin_lesson("no-such-lesson"), nullptr);
  EXPECT_EQ(app::find_builtin_lesson("positional-encoding-101.md"), nullptr);
}

TEST(BuiltinLessons, EveryLessonLoadsChecksAndAppliesSlideBySlide) {
  std::set<std::string> known_views;
  for (const auto& v : app::all_views()) known_views.insert(v.name);
  for (const auto& builtin : app::builtin_lessons()) {
    SCOPED_TRACE(builtin.name);
    pe::Lesson lesson;
    ASSERT_NO_THROW(lesson = app::load_lesson_source(builtin.name));
    ASSERT_GE(lesson.slides.size(), 5u);
    std::vector<app::AppState> states;
    try {
      states = app::lesson_slide_states(lesson, app::default_state());
    } catch (const std::exception& e) {
      FAIL() << e.what();
    }
    ASSERT_EQ(states.size(), lesson.slides.size());
    int animated = 0;
    for (std::size_t k = 0; k < lesson.slides.size(); ++k) {
      const pe::LessonSlide& slide = lesson.slides[k];
      SCOPED_TRACE("slide " + std::to_string(k + 1) + " (line " + std::to_string(slide.line) + ")");
      EXPECT_TRUE(known_views.count(slide.view));
      EXPECT_EQ(states[k].view, slide.view);
      EXPECT_FALSE(slide.title().empty()) << "every slide has a heading";
      EXPECT_GE(slide.body.size(), 2u) << "every slide has text";
      EXPECT_FALSE(slide.notes.empty()) << "every slide has speaker notes";
      if (slide.animation) {
        ++animated;
        EXPECT_GT(slide.animation->seconds, 0.0);
        EXPECT_LE(slide.animation->seconds, 10.0) << "an animation a class watches, not a film";
      }
    }
    EXPECT_GE(animated, 1) << "some slides move";
  }
}

// Where each lesson must go (issue 13 part 3).
TEST(BuiltinLessons, EachLessonCoversItsSubject) {
  const auto views_of = [](const std::string& name) {
    std::multiset<std::string> v;
    for (const auto& s : app::load_lesson_source(name).slides) v.insert(s.view);
    return v;
  };
  const auto intro = views_of("positional-encoding-101");
  for (const char* v : {"permutation", "learned", "sinusoidal", "clock-hands", "walkthrough", "relative-score",
                        "theta-lesson", "scaling", "extrapolation", "alibi"})
    EXPECT_TRUE(intro.count(v)) << "positional-encoding-101 lacks " << v;
  std::set<std::string> mistakes;
  for (const auto& s : app::load_lesson_source("positional-encoding-101").slides)
    if (s.view == "common-mistake" && s.find("mistake")) mistakes.insert(s.find("mistake")->text);
  EXPECT_EQ(mistakes, (std::set<std::string>{"half-split-cache", "interleaved-cache"}));

  std::set<std::string> presets;
  for (const auto& s : app::load_lesson_source("rope-scaling-in-practice").slides)
    if (const auto* p = s.find("preset")) presets.insert(p->text);
  for (const char* p : {"llama-3.1-8b", "qwen2.5-7b-yarn", "phi-3-mini-128k"})
    EXPECT_TRUE(presets.count(p)) << "rope-scaling-in-practice lacks " << p;

  const auto mm = views_of("multimodal-rope");
  for (const char* v : {"mrope-layout", "mrope-positions", "rope-2d"}) EXPECT_TRUE(mm.count(v)) << v;

  // Issue 32: from Shaw's relative keys through T5, DeBERTa and ALiBi to the extrapolation
  // families, each with its paper named on a slide.
  const auto rel = views_of("relative-positions");
  for (const char* v : {"relative-key", "transformer-xl", "t5-bias", "deberta", "alibi", "distance-bias", "xpos", "cope"})
    EXPECT_TRUE(rel.count(v)) << "relative-positions lacks " << v;
  const std::string md(app::find_builtin_lesson("relative-positions")->markdown);
  for (const char* cite : {"Shaw et al. 2018", "Huang et al. 2020", "Dai et al. 2019", "Raffel et al. 2020", "He et al. 2021",
                           "Press et al. 2022", "Sun et al. 2022", "Chi et al. 2022", "Chi et al. 2023", "Li et al. 2023",
                           "Kazemnejad et al. 2023", "Golovneva et al. 2024"})
    EXPECT_NE(md.find(cite), std::string::npos) << cite;
  // The T5 slide sets the encoder's buckets, the next the decoder's.
  std::set<std::string> causal;
  for (const auto& s : app::load_lesson_source("relative-positions").slides)
    if (const auto* c = s.find("causal")) causal.insert(c->text);
  EXPECT_EQ(causal, (std::set<std::string>{"false", "true"}));
}

// The errata the 101 lesson promises to correct are named on its slides (SEED-ERRATA 1-8).
TEST(BuiltinLessons, TheIntroSaysWhereTheSeedsAreWrong) {
  const std::string md(app::find_builtin_lesson("positional-encoding-101")->markdown);
  for (const char* fact : {"0.17980, 0.83527, −0.50198, 0.19500",  // 1: exact worked example
                           "raise** θ",                             // 2: theta backwards
                           "`cat(freqs, freqs)`",                   // 3: seed 004's mix
                           "pair 0 is the fastest",                 // 4
                           "extrapolates excellently",              // 5
                           "rotates by −pθ",                        // 6
                           "30° per position",                      // 7
                           "−0.47855", "−0.24439", "−0.52510"})     // 8
    EXPECT_NE(md.find(fact), std::string::npos) << fact;
}

// What the check above relies on for presets: an unknown one is refused with its line.
TEST(BuiltinLessons, AnUnknownPresetIsRefusedWithItsLine) {
  pe::Lesson lesson = pe::parse_lesson("view: scaling\n\n# A\n---\nview: scaling\npreset: llama-9\n\n# B\n", "x.md");
  pe::check_lesson(lesson, app::lesson_parameters());
  try {
    app::lesson_slide_states(lesson, app::default_state());
    FAIL() << "accepted";
  } catch (const pe::LessonError& e) {
    EXPECT_EQ(e.line(), 6) << e.what();
    EXPECT_EQ(e.key(), "preset") << e.what();
  }
}

TEST(BuiltinLessons, AnUnknownNameListsTheBuiltInLessons) {
  try {
    app::load_lesson_source("positional-encoding-102");
    FAIL() << "accepted";
  } catch (const pe::LessonError& e) {
    EXPECT_NE(std::string(e.what()).find("positional-encoding-101"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("multimodal-rope"), std::string::npos) << e.what();
  }
}

}  // namespace
