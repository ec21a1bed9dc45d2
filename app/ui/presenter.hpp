#pragma once
// Presenter mode: a lesson (pe/lessons/lesson_file.hpp) shown slide by slide over the main frame.
// It owns no parameters: each slide's numbers are set in AppState, like the command line
// and sessions do (export/lesson_validation.hpp). Between slides the numeric parameters
// glide (smoothstep; log-interpolated for θ and L, as the lesson table says) instead of
// jumping; Space plays the slide's `animate:` tracks.
//
// Time is whatever the caller passes (the GUI loop's clock, a test's fixed steps), so the
// same calls give the same frames.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "export/lesson_export.hpp"  // load_lesson_source
#include "pe/lessons/animation.hpp"
#include "pe/lessons/lesson_file.hpp"
#include "state/app_state.hpp"

namespace app {

// load_lesson_source (a file, or a built-in lesson by name): export/lesson_export.hpp.

// The projector preset's sizes (View → Projector: 2× UI, lines 3×), applied when a lesson
// opens; a slide or the user may change them after.
void apply_lesson_display(AppState& state);

class Presenter {
 public:
  // Starts presenting `lesson` at slide `first` (clamped): every slide's state is worked
  // out from `state` first, so a value a slide cannot set is refused here (pe::LessonError,
  // nothing changed), never in the middle of a talk. The first slide is cut to, not glided.
  void open(pe::Lesson lesson, AppState& state, double now, std::size_t first = 0);
  // Esc: leaves presenter mode; the state stays as it is on screen.
  void close();
  bool active() const { return lesson_.has_value(); }

  // Moves to the slide `step` away (clamped to the lesson), gliding from the current
  // values to the slide's. Returns whether the slide changed.
  bool go(AppState& state, int step, double now);
  bool go_to(AppState& state, std::size_t index, double now);
  // Space: starts the slide's animation (from the start once it has finished), or pauses it.
  void toggle_animation(double now);
  void toggle_notes() { show_notes_ = !show_notes_; }

  // Advances the glide and the animation to `now`: sets the moving parameters in `state`.
  // Call once per frame before drawing. A value the state refuses mid-glide ends the glide
  // on the slide's own values.
  void tick(AppState& state, double now);
  // True while parameters are moving (a glide or a playing animation): the GUI loop must
  // keep drawing frames without waiting for input.
  bool animating() const { return gliding() || playing_; }
  bool gliding() const { return glide_.has_value(); }
  bool playing() const { return playing_; }

  const pe::Lesson& lesson() const { return *lesson_; }
  const pe::LessonSlide& slide() const { return lesson_->slides[index_]; }
  std::size_t index() const { return index_; }
  std::size_t count() const { return lesson_ ? lesson_->slides.size() : 0; }
  bool notes_shown() const { return show_notes_; }
  // The slide's animation progress, 0 ... 1 (0 without an animation).
  double animation_progress() const { return progress_; }

 private:
  struct Glide {
    std::vector<pe::AnimationTrack> tracks;
    double start = 0, seconds = 0;
  };
  AppState target_state(const AppState& current, std::size_t index) const;
  void apply_animation(AppState& state);

  std::optional<pe::Lesson> lesson_;
  std::vector<AppState> slide_states_;  // what each slide shows (settings carried over)
  std::size_t index_ = 0;
  std::optional<Glide> glide_;
  bool playing_ = false;
  double progress_ = 0;         // animation progress when last ticked
  double play_started_ = 0;     // time at which progress would have been 0
  bool show_notes_ = false;
};

}  // namespace app
