// bytes → the command-line spec (KEY=FROM:TO[:log]) and the slide spelling (KEY A -> B ...
// over S s). Refusal must be an AnimationError with a message; accepted specs resolve or
// are refused by resolve_track, and resolved tracks give finite values, exactly FROM at 0
// and TO at 1 (integer keys: their rounding), monotone between for linear tracks.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "pe/lessons/animation.hpp"

namespace {

const pe::ParameterTable& table() {
  using K = pe::ParameterInfo::Kind;
  static const pe::ParameterTable t = [] {
    pe::ParameterTable p;
    p.parameters = {{"theta", K::Number, true, pe::AnimationScale::Log},
                    {"dim", K::Integer, true, pe::AnimationScale::Linear, 2},
                    {"length", K::Integer, true, pe::AnimationScale::Log},
                    {"position", K::Integer, true},
                    {"factor", K::Number, true},
                    {"scaling", K::Text}};
    return p;
  }();
  return t;
}

void check_track(pe::AnimationTrack t) {
  try {
    pe::resolve_track(t, table());
  } catch (const pe::AnimationError& e) {
    PE_FUZZ_CHECK(e.what()[0] != '\0', "empty AnimationError");
    return;
  }
  PE_FUZZ_CHECK(t.scale != pe::AnimationScale::Auto, "unresolved scale");
  double previous = pe::track_value(t, 0.0);
  for (int k = 0; k <= 16; ++k) {
    const double v = pe::track_value(t, k / 16.0);
    PE_FUZZ_CHECK(std::isfinite(v) || !std::isfinite(t.to - t.from), t.key + " value");
    if (t.scale == pe::AnimationScale::Linear && std::isfinite(t.to - t.from)) {
      const bool up = t.to >= t.from;
      PE_FUZZ_CHECK(up ? v >= previous : v <= previous, t.key + " not monotone");
    }
    previous = v;
  }
  if (t.step == 0) {
    PE_FUZZ_CHECK(pe::track_value(t, 0.0) == t.from, "start");
    PE_FUZZ_CHECK(pe::track_value(t, 1.0) == t.to, "end");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    check_track(pe::parse_animate_option(text));
  } catch (const pe::AnimationError& e) {
    PE_FUZZ_CHECK(e.what()[0] != '\0', "empty AnimationError");
  }
  try {
    const pe::Animation a = pe::parse_animation(text);
    PE_FUZZ_CHECK(a.seconds > 0 && a.seconds <= 3600, "duration");
    PE_FUZZ_CHECK(!a.tracks.empty(), "no tracks");
    for (const auto& t : a.tracks) check_track(t);
  } catch (const pe::AnimationError& e) {
    PE_FUZZ_CHECK(e.what()[0] != '\0', "empty AnimationError");
  }
  return 0;
}
