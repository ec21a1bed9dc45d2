#pragma once
// What lessons and animations may set, in the app's terms: the keys are the command-line
// state options (--theta, --dim, --position, ...) and values go through apply_overrides,
// the same checks as the command line, so a lesson accepts exactly what `pe-viz --KEY VALUE`
// accepts, with the file, line and key in the message.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "pe/lessons/animation.hpp"
#include "pe/lessons/lesson_file.hpp"
#include "state/app_state.hpp"

namespace app {

// Every key a slide header may set, which are numbers, integers (with their step) and
// animatable (log scale by default for theta, theta-low, theta-high and length), and the
// view names.
const pe::ParameterTable& lesson_parameters();

// load_lesson + check_lesson against lesson_parameters(); throws pe::LessonError.
pe::Lesson load_checked_lesson(const std::filesystem::path& path);

// Applies slide `index`'s settings to `state` through apply_overrides (preset/config first,
// as on the command line; a relative `config` path is relative to the lesson file). The
// animation is not applied (see apply_tracks). Throws pe::LessonError naming the line and
// key of the setting refused; the state is unchanged then.
void apply_slide_settings(AppState& state, const pe::Lesson& lesson, std::size_t index);

// The state slide `index` shows: `base` with slides 0 ... index applied in order (settings
// carry over), and its animation, if any, at its start.
AppState slide_state(const pe::Lesson& lesson, std::size_t index, const AppState& base);

// Sets the animated parameters to their values at progress u (0 ... 1), through
// apply_overrides. Tracks must be resolved against lesson_parameters(). Throws
// pe::InvalidArgument naming the key when the value is refused (state unchanged then).
void apply_tracks(AppState& state, const std::vector<pe::AnimationTrack>& tracks, double u);

// Parses and resolves a command-line --animate spec; throws pe::AnimationError.
pe::AnimationTrack animate_option(const std::string& spec);

}  // namespace app
