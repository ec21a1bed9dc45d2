#pragma once
// Animated parameters, shared by `pe-viz export --animate`, lesson slides (`animate:`) and
// the presenter's transitions. Pure: parsing, checking against a table of parameters, and
// the value of a parameter at a given progress. Nothing here knows AppState; the app
// supplies the ParameterTable (which keys exist, which are numeric, integer, log-scaled).
//
// Two spellings of the same thing:
//   command line  KEY=FROM:TO[:log|:linear]          e.g. "theta=100:1e6:log", "position=0:64"
//   lesson slide  KEY FROM -> TO [(log)|(linear)] {, KEY FROM -> TO ...} over SECONDS [s]
//                 e.g. "position 0 -> 64, theta 100 -> 1e6 (log) over 6 s"  ("→" works too)
// Values go linearly from FROM to TO, or geometrically with "log" (equal ratios per
// second: how θ and L are best seen, and the default for the keys the table marks so).
// Integer parameters are rounded to their step (position 1, dim 2) after interpolating.
#include "pe/lessons/module_guard.hpp"
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace pe {

enum class AnimationScale { Auto, Linear, Log };  // Auto: the parameter's default
const char* to_string(AnimationScale scale);

// One animated parameter.
struct AnimationTrack {
  std::string key;
  double from = 0, to = 0;
  AnimationScale scale = AnimationScale::Auto;  // Linear or Log once resolved
  long long step = 0;                           // > 0: round to a multiple of step (integer keys)
};

// Several parameters animated together over one duration.
struct Animation {
  std::vector<AnimationTrack> tracks;
  double seconds = 0;
};

// What the app knows about one parameter it can set from a lesson or animate.
struct ParameterInfo {
  enum class Kind { Text, Number, Integer };
  std::string key;         // as on the command line: "theta", "theta-low", "position"
  Kind kind = Kind::Text;
  bool animatable = false;  // numbers only; e.g. ui-scale is numeric but not animated
  AnimationScale default_scale = AnimationScale::Linear;
  long long step = 1;       // Integer: values are multiples of step (dim: 2)
};
struct ParameterTable {
  std::vector<ParameterInfo> parameters;
  std::vector<std::string> views;  // valid values of the `view` key
  const ParameterInfo* find(std::string_view key) const;
  std::vector<std::string> keys() const;
};

// A bad animation: names the key (or "animate"), the text given and what is allowed.
class AnimationError : public std::invalid_argument {
 public:
  AnimationError(std::string key, std::string message);
  const std::string& key() const noexcept { return key_; }

 private:
  std::string key_;
};

// "KEY=FROM:TO[:log|:linear]" (spaces around the parts are allowed).
AnimationTrack parse_animate_option(std::string_view spec);
// "KEY FROM -> TO [(log)] {, ...} over SECONDS [s]"; each key at most once, SECONDS > 0.
Animation parse_animation(std::string_view text);

// Checks the track against the table (known, numeric, animatable key; log needs FROM and TO
// > 0; both finite) and fills in the scale and the integer step. Throws AnimationError naming
// the key; an unknown key gets the closest known one suggested.
void resolve_track(AnimationTrack& track, const ParameterTable& table);

// The value at progress u (clamped to 0 ... 1): FROM at 0, TO at 1, exactly. Call on
// resolved tracks (Auto counts as Linear).
double track_value(const AnimationTrack& track, double u);

// Progress of frame k of n evenly spaced frames: 0 for the first, 1 for the last, so a clip
// starts and ends on the values asked for.
double frame_progress(long long k, long long n);

// Hermite smoothstep 3u² − 2u³ on u clamped to 0 ... 1 (zero slope at both ends): the
// easing of the presenter's "glide" transitions between slides.
double smoothstep(double u);

// Parses a whole finite number in C syntax ("64", "-3", "1e6", "2.5"); nullopt otherwise.
std::optional<double> parse_number(std::string_view text);

// The known name closest to `word` (Levenshtein distance), or "" when nothing is close
// enough to be a plausible typo.
std::string closest_name(std::string_view word, const std::vector<std::string>& names);

}  // namespace pe
