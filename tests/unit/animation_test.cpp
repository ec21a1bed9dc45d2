// Animation specs (pe/lessons/animation.hpp): both spellings, checking against a parameter table,
// values at a given progress (worked out by hand below), smoothstep.
#include <gtest/gtest.h>

#include <cmath>

#include "pe/lessons/animation.hpp"

namespace {

using pe::AnimationError;
using pe::AnimationScale;
using pe::ParameterInfo;

// A small table like the app's: theta log by default, position an integer, dim in steps of 2.
pe::ParameterTable table() {
  pe::ParameterTable t;
  t.parameters = {
      {"theta", ParameterInfo::Kind::Number, true, AnimationScale::Log, 1},
      {"length", ParameterInfo::Kind::Integer, true, AnimationScale::Log, 1},
      {"position", ParameterInfo::Kind::Integer, true, AnimationScale::Linear, 1},
      {"dim", ParameterInfo::Kind::Integer, true, AnimationScale::Linear, 2},
      {"factor", ParameterInfo::Kind::Number, true, AnimationScale::Linear, 1},
      {"ui-scale", ParameterInfo::Kind::Number, false, AnimationScale::Linear, 1},
      {"scaling", ParameterInfo::Kind::Text, false, AnimationScale::Linear, 1},
  };
  t.views = {"rope-cos", "clock-hands"};
  return t;
}

TEST(AnimateOption, KeyFromToAndScale) {
  const auto a = pe::parse_animate_option("position=0:64");
  EXPECT_EQ(a.key, "position");
  EXPECT_EQ(a.from, 0.0);
  EXPECT_EQ(a.to, 64.0);
  EXPECT_EQ(a.scale, AnimationScale::Auto);
  const auto b = pe::parse_animate_option("theta=100:1e6:log");
  EXPECT_EQ(b.key, "theta");
  EXPECT_EQ(b.from, 100.0);
  EXPECT_EQ(b.to, 1e6);
  EXPECT_EQ(b.scale, AnimationScale::Log);
  const auto c = pe::parse_animate_option(" theta_low = 2.5 : -3 : linear ");
  EXPECT_EQ(c.key, "theta-low");
  EXPECT_EQ(c.from, 2.5);
  EXPECT_EQ(c.to, -3.0);
  EXPECT_EQ(c.scale, AnimationScale::Linear);
}

TEST(AnimateOption, MalformedSpecsNameWhatIsWrong) {
  for (const char* bad : {"position", "position=0", "position=0:64:log:x"}) {
    try {
      pe::parse_animate_option(bad);
      ADD_FAILURE() << bad << " accepted";
    } catch (const AnimationError& e) {
      EXPECT_EQ(e.key(), "animate") << bad;
      EXPECT_NE(std::string(e.what()).find("KEY=FROM:TO"), std::string::npos) << e.what();
    }
  }
  for (const char* bad : {"=0:64", "pos ition=0:1"}) {
    try {
      pe::parse_animate_option(bad);
      ADD_FAILURE() << bad << " accepted";
    } catch (const AnimationError& e) {
      EXPECT_EQ(e.key(), "animate") << bad;
      EXPECT_NE(std::string(e.what()).find("does not start with a parameter name"), std::string::npos) << e.what();
    }
  }
  try {
    pe::parse_animate_option("theta=abc:10");
    ADD_FAILURE();
  } catch (const AnimationError& e) {
    EXPECT_EQ(e.key(), "theta");
    EXPECT_NE(std::string(e.what()).find("'abc' is not a finite number"), std::string::npos) << e.what();
  }
  EXPECT_THROW(pe::parse_animate_option("theta=1:inf"), AnimationError);
  EXPECT_THROW(pe::parse_animate_option("theta=nan:2"), AnimationError);
  EXPECT_THROW(pe::parse_animate_option("theta=1:2:cubic"), AnimationError);
}

TEST(SlideAnimation, SeveralTracksAndADuration) {
  const auto a = pe::parse_animation("position 0 -> 64, theta 100 -> 1e6 (log) over 6 s");
  ASSERT_EQ(a.tracks.size(), 2u);
  EXPECT_EQ(a.seconds, 6.0);
  EXPECT_EQ(a.tracks[0].key, "position");
  EXPECT_EQ(a.tracks[0].from, 0.0);
  EXPECT_EQ(a.tracks[0].to, 64.0);
  EXPECT_EQ(a.tracks[0].scale, AnimationScale::Auto);
  EXPECT_EQ(a.tracks[1].key, "theta");
  EXPECT_EQ(a.tracks[1].from, 100.0);
  EXPECT_EQ(a.tracks[1].to, 1e6);
  EXPECT_EQ(a.tracks[1].scale, AnimationScale::Log);
  // Spacing, the Unicode arrow, units.
  const auto b = pe::parse_animation("position 0->64 over 4s");
  EXPECT_EQ(b.tracks[0].to, 64.0);
  EXPECT_EQ(b.seconds, 4.0);
  const auto c = pe::parse_animation("length 128 \xE2\x86\x92 8192 (linear) over 2.5 seconds");
  EXPECT_EQ(c.tracks[0].to, 8192.0);
  EXPECT_EQ(c.tracks[0].scale, AnimationScale::Linear);
  EXPECT_EQ(c.seconds, 2.5);
  const auto d = pe::parse_animation("position -3 -> -10 over 1");
  EXPECT_EQ(d.tracks[0].from, -3.0);
  EXPECT_EQ(d.tracks[0].to, -10.0);
}

TEST(SlideAnimation, ErrorsNameTheKeyOrTheProblem) {
  auto message = [](const char* text) {
    try {
      pe::parse_animation(text);
    } catch (const AnimationError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message("position 0 -> 64").find("no duration"), std::string::npos);
  EXPECT_NE(message("position 0 -> 64 over 0 s").find("duration '0 s'"), std::string::npos);
  EXPECT_NE(message("position 0 -> 64 over -1 s").find("> 0"), std::string::npos);
  EXPECT_NE(message("position 0 -> 64 over 5000 s").find("<= 3600"), std::string::npos);
  EXPECT_NE(message("position 0 64 over 4 s").find("position: 'position 0 64' is not KEY FROM -> TO"), std::string::npos);
  EXPECT_NE(message("position 0 -> 64 fast over 4 s").find("unexpected 'fast'"), std::string::npos);
  EXPECT_NE(message("position 0 -> 6x4 over 4 s").find("end value '6x4'"), std::string::npos);
  EXPECT_NE(message("position 0 -> 1, position 2 -> 3 over 4 s").find("position: animated twice"), std::string::npos);
  EXPECT_NE(message("over 4 s").find("nothing to animate"), std::string::npos);
  EXPECT_NE(message("position 0 -> 64, , theta 1 -> 2 over 4 s").find("empty entry"), std::string::npos);
}

TEST(ResolveTrack, DefaultsScaleAndStepFromTheTable) {
  auto t = table();
  auto theta = pe::parse_animate_option("theta=100:1e6");
  pe::resolve_track(theta, t);
  EXPECT_EQ(theta.scale, AnimationScale::Log);
  EXPECT_EQ(theta.step, 0);
  auto theta_lin = pe::parse_animate_option("theta=100:1e6:linear");
  pe::resolve_track(theta_lin, t);
  EXPECT_EQ(theta_lin.scale, AnimationScale::Linear);
  auto pos = pe::parse_animate_option("position=0:64");
  pe::resolve_track(pos, t);
  EXPECT_EQ(pos.scale, AnimationScale::Linear);
  EXPECT_EQ(pos.step, 1);
  auto dim = pe::parse_animate_option("dim=8:64");
  pe::resolve_track(dim, t);
  EXPECT_EQ(dim.step, 2);
}

TEST(ResolveTrack, RefusesUnknownTextAndNonAnimatedKeys) {
  auto t = table();
  auto expect_error = [&](const char* spec, const char* key, const char* part) {
    auto track = pe::parse_animate_option(spec);
    try {
      pe::resolve_track(track, t);
      ADD_FAILURE() << spec << " accepted";
    } catch (const AnimationError& e) {
      EXPECT_EQ(e.key(), key);
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  expect_error("postion=0:64", "postion", "unknown parameter (did you mean position?)");
  expect_error("zzz=0:64", "zzz", "unknown parameter; animatable: theta, length, position, dim, factor");
  expect_error("scaling=0:1", "scaling", "is not numeric and cannot be animated");
  expect_error("ui-scale=1:2", "ui-scale", "is not animated");
  expect_error("theta=0:1e6", "theta", "log-scale animation needs start and end > 0");
  expect_error("position=-1:5:log", "position", "log-scale");
}

TEST(TrackValue, LinearLogAndRounding) {
  pe::AnimationTrack lin{"position", 0, 64, AnimationScale::Linear, 0};
  EXPECT_EQ(pe::track_value(lin, 0.0), 0.0);
  EXPECT_EQ(pe::track_value(lin, 0.25), 16.0);
  EXPECT_EQ(pe::track_value(lin, 1.0), 64.0);
  EXPECT_EQ(pe::track_value(lin, -3.0), 0.0);  // clamped
  EXPECT_EQ(pe::track_value(lin, 7.0), 64.0);
  EXPECT_EQ(pe::track_value(lin, std::nan("")), 0.0);
  // Log: 100 → 1e6 is four decades, so a quarter of the way is 10^3 and half 10^4.
  pe::AnimationTrack log{"theta", 100, 1e6, AnimationScale::Log, 0};
  EXPECT_NEAR(pe::track_value(log, 0.25), 1000.0, 1e-9);
  EXPECT_NEAR(pe::track_value(log, 0.5), 10000.0, 1e-8);
  EXPECT_EQ(pe::track_value(log, 1.0), 1e6);  // exactly the end value
  // Decreasing log: 1e6 → 100, three quarters of the way is 10^3.
  pe::AnimationTrack down{"theta", 1e6, 100, AnimationScale::Log, 0};
  EXPECT_NEAR(pe::track_value(down, 0.75), 1000.0, 1e-9);
  // Integer keys round after interpolating: 0 → 64 at u = 0.3 is 19.2 → 19; at 0.31 19.84 → 20.
  pe::AnimationTrack pos{"position", 0, 64, AnimationScale::Linear, 1};
  EXPECT_EQ(pe::track_value(pos, 0.3), 19.0);
  EXPECT_EQ(pe::track_value(pos, 0.31), 20.0);
  // dim 8 → 64 in steps of 2: u = 0.5 is 36; u = 0.1 is 13.6 → 14; u = 0.08 is 12.48 → 12.
  pe::AnimationTrack dim{"dim", 8, 64, AnimationScale::Linear, 2};
  EXPECT_EQ(pe::track_value(dim, 0.5), 36.0);
  EXPECT_EQ(pe::track_value(dim, 0.1), 14.0);
  EXPECT_EQ(pe::track_value(dim, 0.08), 12.0);
  // Log and rounding: length 128 → 8192 (six doublings), u = 0.5 → 1024.
  pe::AnimationTrack len{"length", 128, 8192, AnimationScale::Log, 1};
  EXPECT_EQ(pe::track_value(len, 0.5), 1024.0);
}

TEST(FrameProgress, FirstIsZeroLastIsOne) {
  EXPECT_EQ(pe::frame_progress(0, 120), 0.0);
  EXPECT_EQ(pe::frame_progress(119, 120), 1.0);
  EXPECT_DOUBLE_EQ(pe::frame_progress(1, 5), 0.25);
  EXPECT_EQ(pe::frame_progress(0, 1), 1.0);
  EXPECT_EQ(pe::frame_progress(500, 120), 1.0);
}

TEST(Smoothstep, HermiteCubic) {
  EXPECT_EQ(pe::smoothstep(0.0), 0.0);
  EXPECT_EQ(pe::smoothstep(1.0), 1.0);
  EXPECT_EQ(pe::smoothstep(0.5), 0.5);
  EXPECT_DOUBLE_EQ(pe::smoothstep(0.25), 3 * 0.0625 - 2 * 0.015625);  // 0.15625
  EXPECT_EQ(pe::smoothstep(-1.0), 0.0);
  EXPECT_EQ(pe::smoothstep(2.0), 1.0);
  // Zero slope at the ends: the first step is much smaller than a linear one.
  EXPECT_LT(pe::smoothstep(0.01), 0.001);
}

TEST(ParseNumber, WholeFiniteNumbersOnly) {
  EXPECT_EQ(pe::parse_number("64"), 64.0);
  EXPECT_EQ(pe::parse_number("+1e6"), 1e6);
  EXPECT_EQ(pe::parse_number("-2.5"), -2.5);
  EXPECT_FALSE(pe::parse_number(""));
  EXPECT_FALSE(pe::parse_number("1e999"));
  EXPECT_FALSE(pe::parse_number("inf"));
  EXPECT_FALSE(pe::parse_number("0x10"));
  EXPECT_FALSE(pe::parse_number("12 "));
  EXPECT_FALSE(pe::parse_number("rope-cos"));
}

TEST(ClosestName, TyposButNotStrangers) {
  const std::vector<std::string> names = {"theta", "position", "length", "dim", "theta-low"};
  EXPECT_EQ(pe::closest_name("thetta", names), "theta");
  EXPECT_EQ(pe::closest_name("Postion", names), "position");
  EXPECT_EQ(pe::closest_name("theta_low", names), "theta-low");
  EXPECT_EQ(pe::closest_name("colour", names), "");
  EXPECT_EQ(pe::closest_name("x", names), "");
}

}  // namespace
