// Presenter mode (issue 13): a lesson driven by the keys a lecturer's clicker sends, the
// glide between slides (smoothstep, log-interpolated θ and L), the slide's animation on
// Space, speaker notes, Esc keeping the state, bad lessons refused without a crash, and
// every slide of a small lesson on a 2× projector with no GL error and no text cut off.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <cmath>

#include "clipped_text.hpp"

#include <imgui_internal.h>
#include "test_support.hpp"
#include "export/lesson_validation.hpp"
#include "ui/file_actions.hpp"
#include "ui/presenter.hpp"
#include "ui/presenter_panel.hpp"

namespace {

using namespace pe_test;

const bool kRegistered = register_session_environment();

// Three slides: text styles and notes; a glide to θ = 10^6, L = 4096; an animation.
constexpr const char* kLesson = R"(view: clock-hands
theta: 10000
length: 128
position: 0

# Every pair is a clock hand

Pair *i* turns by **p·θ_i** per position: `theta` sets how fast the slowest one turns.

- the first pair fastest
  - a nested point, long enough to wrap onto a second line of the slide panel at 2×
- `dim / 2` pairs in all

> A quote, as lecturers like them.
???
Ask which hand is slowest.
---
view: rope-cos
theta: 1000000
length: 4096
transition: glide 0.5 s

## A larger base

1. longer wavelengths
2. the same formula

```
inv_freq = theta ** (-2i/d)
```
---
view: clock-hands
position: 0
animate: position 0 -> 64 over 4 s

## Turning the hands

Space plays the animation.
)";

class PresenterTest : public SessionTest {
 protected:
  app::Presenter presenter;
  app::StatusLine status;
  double now = 100.0;

  void SetUp() override {
    SessionTest::SetUp();
    pe::Lesson lesson = pe::parse_lesson(kLesson, "test-lesson.md");
    pe::check_lesson(lesson, app::lesson_parameters());
    presenter.open(std::move(lesson), session().state(), now);
  }
  app::FrameOptions options() {
    app::FrameOptions o;
    o.status = &status;
    o.presenter = &presenter;
    return o;
  }
  void frame_at(double t) {
    now = t;
    session().frame(now, options());
  }
  // One frame with `key` down, one with it up, as GLFW's callback reports a tap.
  void press(int key) {
    ImGui::GetIO().KeysDown[key] = true;
    session().frame(now, options());
    ImGui::GetIO().KeysDown[key] = false;
    session().frame(now, options());
  }
  void settle() { frame_at(now + 1.0); }  // past any glide (0.5 s)
};

TEST_F(PresenterTest, ArrowAndPageKeysMoveBetweenSlidesWithinTheLesson) {
  ASSERT_TRUE(presenter.active());
  EXPECT_EQ(presenter.index(), 0u);
  EXPECT_EQ(session().state().view, "clock-hands");
  press(GLFW_KEY_RIGHT);
  EXPECT_EQ(presenter.index(), 1u);
  settle();
  EXPECT_EQ(session().state().view, "rope-cos");
  press(GLFW_KEY_PAGE_DOWN);
  EXPECT_EQ(presenter.index(), 2u);
  press(GLFW_KEY_RIGHT);
  EXPECT_EQ(presenter.index(), 2u) << "the last slide stays";
  press(GLFW_KEY_LEFT);
  EXPECT_EQ(presenter.index(), 1u);
  press(GLFW_KEY_PAGE_UP);
  press(GLFW_KEY_PAGE_UP);
  EXPECT_EQ(presenter.index(), 0u) << "the first slide stays";
  settle();
  EXPECT_EQ(session().state().position, 0) << "the arrows moved slides, not the position";
}

TEST_F(PresenterTest, GlidePassesTheLogMidpointOfThetaAndEndsOnTheSlidesValues) {
  const double t0 = now;
  press(GLFW_KEY_RIGHT);  // glide starts at t0, 0.5 s
  EXPECT_TRUE(presenter.gliding());
  EXPECT_TRUE(presenter.animating()) << "the GUI loop must keep drawing";
  frame_at(t0 + 0.25);  // smoothstep(1/2) = 1/2: halfway on the log scale
  const app::AppState& s = session().state();
  // Geometric means, worked out by hand: √(10^4 · 10^6) = 10^5, √(128 · 4096) = 724.08.
  EXPECT_NEAR(s.rope.theta, 1.0e5, 1.0e5 * 1e-9);
  EXPECT_EQ(s.length, 724);
  frame_at(t0 + 0.1);  // earlier: smoothstep(0.2) = 0.104, θ = 10^(4 + 2·0.104)
  EXPECT_NEAR(s.rope.theta, std::pow(10.0, 4.208), 1.0);
  frame_at(t0 + 0.6);
  EXPECT_FALSE(presenter.gliding());
  EXPECT_FALSE(presenter.animating());
  EXPECT_EQ(s.rope.theta, 1.0e6) << "exactly the slide's value";
  EXPECT_EQ(s.length, 4096);
  EXPECT_EQ(s.view, "rope-cos");
}

TEST_F(PresenterTest, SpaceStartsAndStopsTheSlidesAnimation) {
  press(GLFW_KEY_RIGHT);
  press(GLFW_KEY_RIGHT);
  settle();
  ASSERT_EQ(presenter.index(), 2u);
  app::AppState& s = session().state();
  EXPECT_EQ(s.position, 0);
  press(GLFW_KEY_SPACE);
  EXPECT_TRUE(presenter.playing());
  EXPECT_FALSE(s.playing) << "Space belongs to the lesson, not the clock's own play";
  frame_at(now + 2.0);  // half of 4 s: position 0 -> 64 linearly
  EXPECT_EQ(s.position, 32);
  press(GLFW_KEY_SPACE);
  EXPECT_FALSE(presenter.playing());
  frame_at(now + 1.0);
  EXPECT_EQ(s.position, 32) << "paused";
  press(GLFW_KEY_SPACE);
  frame_at(now + 1.0);
  EXPECT_EQ(s.position, 48) << "resumed where it paused";
  frame_at(now + 5.0);
  EXPECT_EQ(s.position, 64);
  EXPECT_FALSE(presenter.playing()) << "stops at the end";
  EXPECT_DOUBLE_EQ(presenter.animation_progress(), 1.0);
}

TEST_F(PresenterTest, EscLeavesTheLessonKeepingTheStateAndGivesTheArrowsBack) {
  press(GLFW_KEY_RIGHT);
  frame_at(now + 0.25);  // mid-glide
  const double theta = session().state().rope.theta;
  press(GLFW_KEY_ESCAPE);
  EXPECT_FALSE(presenter.active());
  frame_at(now + 1.0);
  EXPECT_EQ(session().state().rope.theta, theta) << "the state on screen is kept, not finished or undone";
  EXPECT_EQ(session().state().view, "rope-cos");
  const long long position = session().state().position;
  press(GLFW_KEY_RIGHT);
  EXPECT_EQ(session().state().position, position + 1) << "→ steps the position again";
}

TEST_F(PresenterTest, STogglesTheSpeakerNotes) {
  EXPECT_FALSE(presenter.notes_shown());
  press(GLFW_KEY_S);
  EXPECT_TRUE(presenter.notes_shown());
  EXPECT_TRUE(render::drain_gl_errors().empty());
  press(GLFW_KEY_S);
  EXPECT_FALSE(presenter.notes_shown());
}

TEST_F(PresenterTest, ABadLessonIsReportedWithFileLineAndKeyAndNothingChanges) {
  TempDir dir;
  const fs::path bad = dir / "bad.md";
  std::ofstream(bad) << "view: rope-cos\nthetaa: 5\n\n# Typo\n";
  app::Presenter other;
  app::AppState before = session().state();
  EXPECT_FALSE(app::open_lesson(other, session().state(), bad.string(), status, now));
  EXPECT_FALSE(other.active());
  EXPECT_TRUE(status.error);
  EXPECT_NE(status.text.find("bad.md:2"), std::string::npos) << status.text;
  EXPECT_NE(status.text.find("thetaa"), std::string::npos) << status.text;
  EXPECT_EQ(session().state().rope.theta, before.rope.theta);
  // A dropped .md goes the same way, and a value out of range names its line too.
  const fs::path range = dir / "range.md";
  std::ofstream(range) << "view: rope-cos\n---\nview: clock-hands\nposition: 100000\n";
  app::load_dropped_files(session().state(), {range.string()}, status, now, &other);
  EXPECT_FALSE(other.active());
  EXPECT_NE(status.text.find("range.md:4"), std::string::npos) << status.text;
  EXPECT_NE(status.text.find("position"), std::string::npos) << status.text;
  frame_at(now + 0.1);  // the app keeps running
  EXPECT_TRUE(presenter.active()) << "the lesson already open is untouched";
  // A good dropped lesson opens, with the projector sizes.
  const fs::path good = dir / "good.md";
  std::ofstream(good) << "view: alibi\n\n# ALiBi\n";
  session().state().ui_scale = 1.0f;
  app::load_dropped_files(session().state(), {good.string()}, status, now, &other);
  EXPECT_TRUE(other.active()) << status.text;
  EXPECT_EQ(session().state().view, "alibi");
  EXPECT_EQ(session().state().ui_scale, 2.0f);
}

// Every slide, in both themes, at 2× on a 1920×1080 projector and in a portrait window
// (the text under the view): no GL error, no glyph cut by its window's edge.
TEST_F(PresenterTest, PlayThroughAt2xRendersEverySlideWithoutCutTextOrGlErrors) {
  struct Setup { int width, height; bool beside; };
  for (const Setup setup : {Setup{1920, 1080, true}, Setup{1080, 1350, false}}) {
    session().window().set_size(setup.width, setup.height);
    for (const bool dark : {true, false}) {
      app::AppState& s = session().state();
      s.dark_theme = dark;
      app::apply_lesson_display(s);
      presenter.go_to(s, 0, now);
      for (std::size_t k = 0; k < presenter.count(); ++k) {
        SCOPED_TRACE("slide " + std::to_string(k + 1) + (dark ? " dark " : " light ") + std::to_string(setup.width) + "×" +
                     std::to_string(setup.height));
        presenter.go_to(s, k, now);
        if (k == 0) presenter.toggle_notes();  // the notes panel too
        if (k == 1) presenter.toggle_notes();
        render::drain_gl_errors();
        for (int f = 0; f < 3; ++f) frame_at(now + 0.4);  // scale change settles (font atlas) in frame 1
        EXPECT_FALSE(presenter.gliding());
        EXPECT_EQ(s.ui_scale, 2.0f);
        EXPECT_EQ(app::slide_panel_beside(ImGui::GetIO().DisplaySize), setup.beside);
        // The slide panel's text everywhere; the view's own too where the view has the width
        // text_clipping_test checks every view at (at 2× a 1080 px wide portrait window
        // is narrower: clock-hands' button row runs past it, a limit of that view).
        auto cut = clipped_text(*ImGui::GetDrawData());
        if (!setup.beside)
          std::erase_if(cut, [](const Clipped& c) { return c.window.find("##slide") == std::string::npos; });
        EXPECT_TRUE(cut.empty()) << "text cut off:" << describe(cut);
        const auto errors = render::drain_gl_errors();
        EXPECT_TRUE(errors.empty()) << errors.size() << " GL errors, first: " << (errors.empty() ? "" : errors[0]);
      }
    }
  }
  session().window().set_size(kWindowWidth, kWindowHeight);
  session().state() = known_state();
  presenter.close();
  for (int f = 0; f < 2; ++f) session().frame(0.0);
}

// The lessons pe-viz ships (assets/lessons/*.md, embedded by export/builtin_lessons), each
// played slide by slide on a 2× 1920×1080 projector: no GL error, no glyph of the slide
// panel cut off (the views' own text is text_clipping_test's), and with the notes off and on
// the slide's text fits its panel without scrolling (it shrinks to fit, at most to 75 %).
TEST_F(PresenterTest, EveryShippedLessonPlaysThroughAt2x) {
  const fs::path dir = fs::path(PE_SOURCE_DIR) / "assets" / "lessons";
  std::vector<fs::path> files;
  if (fs::is_directory(dir))
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".md") files.push_back(e.path());
  if (files.empty()) GTEST_SKIP() << "no lessons in " << dir;
  session().window().set_size(1920, 1080);
  for (const fs::path& file : files) {
    app::Presenter p;
    app::AppState& s = session().state() = known_state();
    app::apply_lesson_display(s);
    ASSERT_NO_THROW(p.open(app::load_lesson_source(file.string()), s, now)) << file;
    for (std::size_t k = 0; k < p.count(); ++k) {
      SCOPED_TRACE(file.filename().string() + " slide " + std::to_string(k + 1));
      p.go_to(s, k, now);
      render::drain_gl_errors();
      for (int f = 0; f < 3; ++f) {
        now += 1.0;
        app::FrameOptions o;
        o.status = &status;
        o.presenter = &p;
        session().frame(now, o);
      }
      auto cut = clipped_text(*ImGui::GetDrawData());
      std::erase_if(cut, [](const Clipped& c) { return c.window.find("##slide") == std::string::npos; });
      EXPECT_TRUE(cut.empty()) << "slide text cut off:" << describe(cut);
      const auto errors = render::drain_gl_errors();
      EXPECT_TRUE(errors.empty()) << errors.size() << " GL errors, first: " << (errors.empty() ? "" : errors[0]);
      for (const bool notes : {false, true}) {
        if (p.notes_shown() != notes) p.toggle_notes();
        app::FrameOptions o;
        o.status = &status;
        o.presenter = &p;
        session().frame(now, o);  // ImGui sizes scrolling from the frame before: two frames
        session().frame(now, o);
        int found = 0;
        for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
          if (w->Active && std::string(w->Name).find("##slide-text") != std::string::npos) {
            ++found;
            EXPECT_LE(w->ScrollMax.y, 0.0f) << "the slide's text scrolls (notes " << (notes ? "on" : "off") << ")";
          }
        EXPECT_EQ(found, 1);
      }
      if (p.notes_shown()) p.toggle_notes();
    }
  }
  session().window().set_size(kWindowWidth, kWindowHeight);
  session().state() = known_state();
  for (int f = 0; f < 2; ++f) session().frame(0.0);
}

}  // namespace
