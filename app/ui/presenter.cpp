#include "ui/presenter.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <utility>

#include "export/builtin_lessons.hpp"
#include "export/lesson_validation.hpp"
#include "pe/base/errors.hpp"

namespace app {
namespace {

// The numbers that glide between slides, with where they live in AppState. Everything
// else a slide sets (view, preset, scaling type, text) changes at the start of the glide.
struct GlideField {
  const char* key;  // lesson key (lesson_parameters): its scale and integer step
  std::function<double&(AppState&)> number;
  std::function<long long&(AppState&)> integer;
};

const std::vector<GlideField>& glide_fields() {
  static const std::vector<GlideField> fields = {
      {"theta", [](AppState& s) -> double& { return s.rope.theta; }, nullptr},
      {"dim", nullptr, [](AppState& s) -> long long& { return s.rope.head_dim; }},
      {"length", nullptr, [](AppState& s) -> long long& { return s.length; }},
      {"position", nullptr, [](AppState& s) -> long long& { return s.position; }},
      {"pair", nullptr, [](AppState& s) -> long long& { return s.pair; }},
      {"factor", [](AppState& s) -> double& { return s.rope.scaling.factor; }, nullptr},
      {"p-rope", [](AppState& s) -> double& { return s.p_rope; }, nullptr},
      {"theta-low", [](AppState& s) -> double& { return s.theta_low; }, nullptr},
      {"theta-high", [](AppState& s) -> double& { return s.theta_high; }, nullptr},
  };
  return fields;
}

double read(const GlideField& f, AppState& s) { return f.number ? f.number(s) : double(f.integer(s)); }
void write(const GlideField& f, AppState& s, double v) {
  if (f.number) f.number(s) = v;
  else f.integer(s) = std::llround(v);
}

// Mid-glide values lie between two valid states but in combinations neither had (a position
// still large while the length already shrank): keep the selections inside what is shown.
void keep_selection_in_range(AppState& s) {
  s.position = std::clamp<long long>(s.position, 0, std::max<long long>(s.length - 1, 0));
  s.pair = std::clamp<long long>(s.pair, 0, std::max<long long>(s.rope.rotary_dim() / 2 - 1, 0));
  if (s.rope.head_dim != static_cast<long long>(s.vector.size())) s.vector.clear();
}

}  // namespace

void apply_lesson_display(AppState& state) {
  // The sizes of View → Projector (main_frame.cpp): readable from the back of a lecture hall.
  state.ui_scale = 2.0f;
  state.line_width = 3.0f;
}

void Presenter::open(pe::Lesson lesson, AppState& state, double now, std::size_t first) {
  if (lesson.slides.empty()) throw pe::LessonError(lesson.file, 1, "", "the lesson has no slides");
  std::vector<AppState> states;
  states.reserve(lesson.slides.size());
  AppState s = state;
  s.playing = false;
  s.animate_length = false;
  s.grid = false;
  for (std::size_t k = 0; k < lesson.slides.size(); ++k) {
    apply_slide_settings(s, lesson, k);  // throws LessonError with the line and key
    AppState shown = s;
    const pe::LessonSlide& slide = lesson.slides[k];
    if (slide.animation) {
      try {
        apply_tracks(shown, slide.animation->tracks, 0.0);
      } catch (const pe::InvalidArgument& e) {
        throw pe::LessonError(lesson.file, slide.animation_line, e.parameter(), "'" + e.value() + "' at the start: " + e.allowed());
      }
    }
    states.push_back(std::move(shown));
  }
  lesson_ = std::move(lesson);
  slide_states_ = std::move(states);
  glide_.reset();
  playing_ = false;
  progress_ = 0;
  index_ = std::min(first, slide_states_.size() - 1);
  state = target_state(state, index_);
  (void)now;
}

void Presenter::close() {
  lesson_.reset();
  slide_states_.clear();
  glide_.reset();
  playing_ = false;
  progress_ = 0;
}

AppState Presenter::target_state(const AppState& current, std::size_t index) const {
  AppState t = slide_states_[index];
  // The lecturer's display choices stay as they are unless the slide itself sets them.
  const pe::LessonSlide& slide = lesson_->slides[index];
  if (!slide.find("ui-scale")) t.ui_scale = current.ui_scale;
  if (!slide.find("line-width")) t.line_width = current.line_width;
  if (!slide.find("colormap")) t.colormap = current.colormap;
  t.dark_theme = current.dark_theme;
  t.show_formula = current.show_formula;
  t.show_panel = current.show_panel;
  t.show_help = current.show_help;
  t.recent_configs = current.recent_configs;
  return t;
}

bool Presenter::go(AppState& state, int step, double now) {
  if (!active()) return false;
  const long long to = std::clamp<long long>(static_cast<long long>(index_) + step, 0, static_cast<long long>(count()) - 1);
  return go_to(state, std::size_t(to), now);
}

bool Presenter::go_to(AppState& state, std::size_t index, double now) {
  if (!active() || index >= count() || index == index_) return false;
  AppState target = target_state(state, index);
  const pe::SlideTransition& transition = lesson_->slides[index].transition;
  index_ = index;
  playing_ = false;
  progress_ = 0;
  glide_.reset();
  if (transition.kind == pe::SlideTransition::Kind::Cut || transition.seconds <= 0) {
    state = std::move(target);
    return true;
  }
  Glide glide{{}, now, transition.seconds};
  for (const GlideField& f : glide_fields()) {
    pe::AnimationTrack track{f.key, read(f, state), read(f, target)};
    if (track.from == track.to) continue;
    try {
      pe::resolve_track(track, lesson_parameters());  // scale (log for θ and L) and step
    } catch (const pe::AnimationError&) {
      track.scale = pe::AnimationScale::Linear;  // log between values <= 0: linear instead
    }
    glide.tracks.push_back(track);
  }
  // Text settings switch now; the numbers start where they were.
  AppState start = target;
  for (const GlideField& f : glide_fields())
    for (const auto& t : glide.tracks)
      if (t.key == f.key) write(f, start, t.from);
  keep_selection_in_range(start);
  state = std::move(start);
  if (!glide.tracks.empty()) glide_ = std::move(glide);
  else state = target_state(state, index_);
  return true;
}

void Presenter::toggle_animation(double now) {
  if (!active() || !slide().animation) return;
  if (playing_) {
    playing_ = false;
    return;
  }
  if (progress_ >= 1.0) progress_ = 0;
  play_started_ = now - progress_ * slide().animation->seconds;
  playing_ = true;
}

void Presenter::tick(AppState& state, double now) {
  if (!active()) return;
  if (glide_) {
    const double u = pe::smoothstep((now - glide_->start) / glide_->seconds);
    if (u >= 1.0) {
      // Exactly the slide's values at the end (and its preset, which a glided θ had cleared).
      AppState target = target_state(state, index_);
      for (const GlideField& f : glide_fields()) write(f, state, read(f, target));
      state.preset = target.preset;
      state.vector = target.vector;
      glide_.reset();
    } else {
      for (const auto& t : glide_->tracks)
        for (const GlideField& f : glide_fields())
          if (t.key == f.key) write(f, state, pe::track_value(t, u));
      keep_selection_in_range(state);
    }
  }
  if (playing_ && glide_) play_started_ = now - progress_ * slide().animation->seconds;  // waits for the glide
  if (playing_ && slide().animation && !glide_) {
    const pe::Animation& a = *slide().animation;
    progress_ = std::clamp((now - play_started_) / a.seconds, 0.0, 1.0);
    apply_animation(state);
    if (progress_ >= 1.0) playing_ = false;
  }
}

void Presenter::apply_animation(AppState& state) {
  try {
    apply_tracks(state, slide().animation->tracks, progress_);
  } catch (const std::exception&) {
    playing_ = false;  // the state refused a value (checked at open for the start only): stop there
  }
}

}  // namespace app
