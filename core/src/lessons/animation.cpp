#include "pe/lessons/animation.hpp"

#include <algorithm>
#include <cmath>
#include <cctype>
#include <cstddef>

#include "pe/base/errors.hpp"
#include "pe/base/number_text.hpp"

namespace pe {
namespace {

constexpr double kMaxSeconds = 3600.0;  // an hour of animation is already 108000 frames at 30 fps

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\n");
  return s.substr(first, last - first + 1);
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return out;
}

std::vector<std::string_view> split(std::string_view s, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == separator) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::string word;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      if (!word.empty()) out.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) out.push_back(std::move(word));
  return out;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string animatable_list(const ParameterTable& table) {
  std::vector<std::string> keys;
  for (const auto& p : table.parameters)
    if (p.animatable) keys.push_back(p.key);
  return joined(keys);
}

double number_or_throw(std::string_view text, const std::string& key, const char* what) {
  const auto v = parse_number(trim(text));
  if (!v) {
    throw AnimationError(key, std::string(what) + " '" + std::string(trim(text)) +
                                  "' is not a finite number (write e.g. 64, 0.5 or 1e6)");
  }
  return *v;
}

AnimationScale scale_from_word(std::string_view word, const std::string& key) {
  const std::string w = lower(trim(word));
  if (w == "log") return AnimationScale::Log;
  if (w == "linear" || w == "lin") return AnimationScale::Linear;
  throw AnimationError(key, "scale '" + std::string(trim(word)) + "' is not log or linear");
}

// "4", "4 s", "4s", "4 sec", "4 seconds" → 4.
double parse_seconds(std::string_view text) {
  std::string t(trim(text));
  for (const char* unit : {"seconds", "second", "secs", "sec", "s"}) {
    const std::string u(unit);
    if (t.size() > u.size() && lower(t.substr(t.size() - u.size())) == u) {
      t = std::string(trim(std::string_view(t).substr(0, t.size() - u.size())));
      break;
    }
  }
  const auto v = parse_number(t);
  if (!v || !(*v > 0.0) || *v > kMaxSeconds) {
    throw AnimationError("animate", "duration '" + std::string(trim(text)) + "' must be a number of seconds, > 0 and <= " +
                                        format_double(kMaxSeconds) + " (e.g. \"over 4 s\")");
  }
  return *v;
}

void check_key_syntax(const std::string& key, std::string_view whole) {
  const bool ok = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
  if (!ok) throw AnimationError("animate", "'" + std::string(trim(whole)) + "' does not start with a parameter name");
}

// Keys are written as on the command line; "theta_low" means "theta-low".
std::string normalized_key(std::string_view key) {
  std::string k(trim(key));
  std::replace(k.begin(), k.end(), '_', '-');
  return k;
}

// One "KEY FROM -> TO [(log)]" of a slide's animate line.
AnimationTrack parse_slide_track(std::string_view text) {
  // The arrow may touch its numbers ("0->64") and may be the Unicode one.
  std::string spaced;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "->") == 0) {
      spaced += " -> ";
      ++i;
    } else if (text.compare(i, 3, "\xE2\x86\x92") == 0) {  // U+2192 →
      spaced += " -> ";
      i += 2;
    } else if (text[i] == '(' || text[i] == ')') {
      spaced += ' ';
      spaced += text[i];
      spaced += ' ';
    } else {
      spaced += text[i];
    }
  }
  const std::vector<std::string> w = words(spaced);
  if (w.empty()) throw AnimationError("animate", "an empty entry between commas (write KEY FROM -> TO, ...)");
  AnimationTrack track;
  track.key = normalized_key(w[0]);
  check_key_syntax(track.key, text);
  // KEY FROM -> TO, optionally followed by "( log )".
  if (w.size() < 4 || w[2] != "->") {
    throw AnimationError(track.key, "'" + std::string(trim(text)) + "' is not KEY FROM -> TO (e.g. \"position 0 -> 64\")");
  }
  track.from = number_or_throw(w[1], track.key, "start value");
  track.to = number_or_throw(w[3], track.key, "end value");
  if (w.size() == 7 && w[4] == "(" && w[6] == ")") {
    track.scale = scale_from_word(w[5], track.key);
  } else if (w.size() != 4) {
    throw AnimationError(track.key, "unexpected '" + w[4] + "' after the end value (only \"(log)\" or \"(linear)\" may follow)");
  }
  return track;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      const char ca = char(std::tolower(static_cast<unsigned char>(a[i - 1])));
      const char cb = char(std::tolower(static_cast<unsigned char>(b[j - 1])));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (ca == cb ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace

const char* to_string(AnimationScale scale) {
  switch (scale) {
    case AnimationScale::Linear: return "linear";
    case AnimationScale::Log: return "log";
    case AnimationScale::Auto: break;
  }
  return "auto";
}

const ParameterInfo* ParameterTable::find(std::string_view key) const {
  for (const auto& p : parameters)
    if (p.key == key) return &p;
  return nullptr;
}

std::vector<std::string> ParameterTable::keys() const {
  std::vector<std::string> out;
  for (const auto& p : parameters) out.push_back(p.key);
  return out;
}

AnimationError::AnimationError(std::string key, std::string message)
    : std::invalid_argument(key.empty() ? message : key + ": " + message), key_(std::move(key)) {}

std::optional<double> parse_number(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return std::nullopt;
  return parse_double(text);
}

std::string closest_name(std::string_view word, const std::vector<std::string>& names) {
  std::string best;
  std::size_t best_distance = std::string::npos;
  for (const auto& n : names) {
    const std::size_t d = edit_distance(word, n);
    if (d < best_distance) {
      best_distance = d;
      best = n;
    }
  }
  // A plausible typo: a couple of edits, or a third of the word for long names.
  const std::size_t allowed = std::max<std::size_t>(2, word.size() / 3);
  return best_distance <= allowed && best_distance < word.size() ? best : std::string();
}

AnimationTrack parse_animate_option(std::string_view spec) {
  const std::vector<std::string_view> parts = split(spec, ':');
  const std::size_t equals = parts.empty() ? std::string_view::npos : parts[0].find('=');
  if (equals == std::string_view::npos || parts.size() < 2 || parts.size() > 3) {
    throw AnimationError("animate", "'" + std::string(spec) +
                                        "' is not KEY=FROM:TO[:log] (e.g. position=0:64 or theta=100:1e6:log)");
  }
  AnimationTrack track;
  track.key = normalized_key(parts[0].substr(0, equals));
  check_key_syntax(track.key, spec);
  track.from = number_or_throw(parts[0].substr(equals + 1), track.key, "start value");
  track.to = number_or_throw(parts[1], track.key, "end value");
  if (parts.size() == 3) track.scale = scale_from_word(parts[2], track.key);
  return track;
}

Animation parse_animation(std::string_view text) {
  // The duration follows the last word "over".
  const std::string low = lower(text);
  std::size_t over = std::string::npos;
  for (std::size_t at = low.find("over"); at != std::string::npos; at = low.find("over", at + 1)) {
    const bool starts = at == 0 || low[at - 1] == ' ' || low[at - 1] == '\t' || low[at - 1] == ',';
    const bool ends = at + 4 == low.size() || low[at + 4] == ' ' || low[at + 4] == '\t' ||
                      (low[at + 4] >= '0' && low[at + 4] <= '9');
    if (starts && ends) over = at;
  }
  if (over == std::string::npos) {
    throw AnimationError("animate", "'" + std::string(trim(text)) +
                                        "' has no duration: end it with \"over SECONDS s\" (e.g. \"position 0 -> 64 over 4 s\")");
  }
  Animation animation;
  animation.seconds = parse_seconds(text.substr(over + 4));
  std::string_view tracks = trim(text.substr(0, over));
  if (!tracks.empty() && tracks.back() == ',') tracks.remove_suffix(1);
  if (trim(tracks).empty()) throw AnimationError("animate", "nothing to animate before \"over\" (write KEY FROM -> TO)");
  for (std::string_view part : split(tracks, ',')) {
    AnimationTrack track = parse_slide_track(part);
    for (const auto& t : animation.tracks)
      if (t.key == track.key) throw AnimationError(track.key, "animated twice in one line");
    animation.tracks.push_back(std::move(track));
  }
  return animation;
}

void resolve_track(AnimationTrack& track, const ParameterTable& table) {
  const ParameterInfo* p = table.find(track.key);
  if (!p) {
    const std::string near = closest_name(track.key, table.keys());
    throw AnimationError(track.key, "unknown parameter" + (near.empty() ? std::string() : " (did you mean " + near + "?)") +
                                        "; animatable: " + animatable_list(table));
  }
  if (p->kind == ParameterInfo::Kind::Text || !p->animatable) {
    throw AnimationError(track.key, std::string(p->kind == ParameterInfo::Kind::Text ? "is not numeric" : "is not animated") +
                                        " and cannot be animated; animatable: " + animatable_list(table));
  }
  if (!std::isfinite(track.from) || !std::isfinite(track.to))
    throw AnimationError(track.key, "start and end must be finite numbers");
  if (track.scale == AnimationScale::Auto) track.scale = p->default_scale;
  if (track.scale == AnimationScale::Log && !(track.from > 0.0 && track.to > 0.0)) {
    throw AnimationError(track.key, "a log-scale animation needs start and end > 0 (got " + format_double(track.from) +
                                        " -> " + format_double(track.to) + "); add :linear / (linear) for a linear one");
  }
  track.step = p->kind == ParameterInfo::Kind::Integer ? std::max<long long>(p->step, 1) : 0;
}

double track_value(const AnimationTrack& track, double u) {
  if (!(u > 0.0)) u = 0.0;  // NaN counts as the start
  if (u > 1.0) u = 1.0;
  double v;
  if (u == 0.0) v = track.from;
  else if (u == 1.0) v = track.to;
  // Geometric: equal ratios in equal times, exp(lerp(log a, log b, u)); in logs, so that
  // to/from cannot overflow.
  else if (track.scale == AnimationScale::Log)
    v = std::exp(std::log(track.from) + (std::log(track.to) - std::log(track.from)) * u);
  // to − from overflows for ends near ±DBL_MAX: then the weighted sum, which cannot.
  else if (std::isfinite(track.to - track.from)) v = track.from + (track.to - track.from) * u;
  else v = (1.0 - u) * track.from + u * track.to;
  if (track.step > 0) v = std::round(v / double(track.step)) * double(track.step);
  return v;
}

double frame_progress(long long k, long long n) {
  if (n <= 1) return 1.0;
  return double(std::clamp(k, 0LL, n - 1)) / double(n - 1);
}

double smoothstep(double u) {
  if (!(u > 0.0)) return 0.0;
  if (u >= 1.0) return 1.0;
  return u * u * (3.0 - 2.0 * u);
}

}  // namespace pe
