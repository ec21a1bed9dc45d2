// Lesson files (pe/lessons/lesson_file.hpp): splitting into slides, slide headers, checking them
// against the app's parameters. The Markdown itself is lesson_markdown.cpp's.
#include "pe/lessons/lesson_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "pe/base/errors.hpp"

namespace pe {
namespace {

struct Line {
  std::string_view text;  // without the line break (and without a trailing '\r')
  int number;             // 1-based
};

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> lines;
  int number = 1;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back({line, number++});
    start = end + 1;
  }
  return lines;
}

// A code fence opener/closer: up to 3 spaces, then 3 or more ` or ~ (CommonMark 4.5).
// Returns the fence's character and length, or {0, 0}.
std::pair<char, std::size_t> fence_of(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && i < 3 && line[i] == ' ') ++i;
  if (i >= line.size() || (line[i] != '`' && line[i] != '~')) return {0, 0};
  const char c = line[i];
  std::size_t n = 0;
  while (i + n < line.size() && line[i + n] == c) ++n;
  return n >= 3 ? std::make_pair(c, n) : std::make_pair('\0', std::size_t{0});
}

bool is_marker(std::string_view line, std::string_view marker) {
  // Trailing blanks are invisible in an editor, so "--- " still separates.
  return line.substr(0, line.find_last_not_of(" \t") + 1) == marker;
}

// "key: value" → key and value, when the line is a header line.
bool header_entry(std::string_view line, std::string& key, std::string& value) {
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  const std::string_view k = line.substr(0, colon);
  if (!((k[0] >= 'a' && k[0] <= 'z') || (k[0] >= 'A' && k[0] <= 'Z'))) return false;
  for (char c : k)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) return false;
  key.assign(k);
  for (char& c : key) {
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    if (c == '_') c = '-';
  }
  std::string_view v = trim(line.substr(colon + 1));
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
  value.assign(v);
  return true;
}

std::string join_lines(const std::vector<Line>& lines, std::size_t begin, std::size_t end) {
  std::string out;
  for (std::size_t i = begin; i < end; ++i) {
    out.append(lines[i].text);
    out += '\n';
  }
  return out;
}

SlideTransition parse_transition(const std::string& value, const std::string& file, int line) {
  std::istringstream in(value);
  std::string kind, rest;
  in >> kind;
  std::getline(in, rest);
  for (char& c : kind)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  SlideTransition t;
  const std::string_view r = trim(rest);
  if (kind == "cut" && r.empty()) {
    t.kind = SlideTransition::Kind::Cut;
    t.seconds = 0;
    return t;
  }
  if (kind == "glide") {
    if (r.empty()) return t;
    std::string_view number = r;
    for (std::string_view unit : {"seconds", "second", "sec", "s"}) {
      if (number.size() > unit.size() && number.substr(number.size() - unit.size()) == unit) {
        number = trim(number.substr(0, number.size() - unit.size()));
        break;
      }
    }
    const auto v = parse_number(number);
    if (v && *v > 0.0 && *v <= 60.0) {
      t.seconds = *v;
      return t;
    }
  }
  throw LessonError(file, line, "transition", "'" + value + "' is not \"cut\" or \"glide [SECONDS s]\" (0 < SECONDS <= 60)");
}

LessonSlide parse_slide(const std::vector<Line>& lines, std::size_t begin, std::size_t end, const std::string& file) {
  LessonSlide slide;
  std::size_t i = begin;
  while (i < end && trim(lines[i].text).empty()) ++i;
  slide.line = i < end ? lines[i].number : lines[begin].number;
  // Header: the leading "key: value" lines.
  std::string key, value;
  bool saw_transition = false;
  for (; i < end && header_entry(lines[i].text, key, value); ++i) {
    const int number = lines[i].number;
    if (value.empty()) throw LessonError(file, number, key, "no value after the colon");
    const bool repeated = (key == "animate" && slide.animation) || (key == "transition" && saw_transition) ||
                          slide.find(key) != nullptr;
    if (repeated) throw LessonError(file, number, key, "set twice on one slide (each key at most once)");
    if (key == "animate") {
      try {
        slide.animation = parse_animation(value);
      } catch (const AnimationError& e) {
        const std::string what = e.what();
        const std::string prefix = e.key() + ": ";
        throw LessonError(file, number, e.key(), what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what);
      }
      slide.animation_line = number;
    } else if (key == "transition") {
      slide.transition = parse_transition(value, file, number);
      saw_transition = true;
    } else {
      slide.settings.push_back({key, value, parse_number(value), number});
      if (key == "view") slide.view = value;
    }
  }
  // Body, then the notes after a "???" line outside fenced code.
  std::size_t notes = end;
  char fence = 0;
  std::size_t fence_length = 0;
  for (std::size_t k = i; k < end; ++k) {
    const auto [c, n] = fence_of(lines[k].text);
    if (fence == 0 && c != 0) {
      fence = c;
      fence_length = n;
    } else if (fence != 0 && c == fence && n >= fence_length && trim(lines[k].text).find_first_not_of(c) == std::string_view::npos) {
      fence = 0;
    } else if (fence == 0 && is_marker(lines[k].text, "???")) {
      notes = k;
      break;
    }
  }
  slide.body = parse_markdown(join_lines(lines, i, notes));
  if (notes < end) slide.notes = parse_markdown(join_lines(lines, notes + 1, end));
  if (slide.view.empty()) {
    throw LessonError(file, slide.line, "view",
                      "the slide has no `view:` line (every slide starts with e.g. \"view: rope-cos\")");
  }
  return slide;
}

std::string error_text(const std::string& file, int line, const std::string& key, const std::string& message) {
  std::string out = file;
  if (line > 0) out += ":" + std::to_string(line);
  out += ": ";
  if (!key.empty()) out += key + ": ";
  return out + message;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

LessonError::LessonError(std::string file, int line, std::string key, std::string message)
    : std::runtime_error(error_text(file, line, key, message)),
      file_(std::move(file)),
      line_(line),
      key_(std::move(key)),
      message_(std::move(message)) {}

const LessonSetting* LessonSlide::find(std::string_view key) const {
  for (const auto& s : settings)
    if (s.key == key) return &s;
  return nullptr;
}

std::string LessonSlide::title() const {
  for (const auto& b : body)
    if (b.kind == BlockKind::Heading) return b.plain_text();
  return {};
}

Lesson parse_lesson(std::string_view text, const std::string& file_name) {
  if (text.size() > kMaxLessonBytes) {
    throw LessonError(file_name, 0, "", "the file has " + format_bytes(text.size()) + "; lessons are limited to " +
                                            format_bytes(kMaxLessonBytes));
  }
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // a UTF-8 byte order mark
  const std::vector<Line> lines = split_lines(text);
  Lesson lesson;
  lesson.file = file_name;
  std::size_t begin = 0;
  char fence = 0;
  std::size_t fence_length = 0;
  auto flush = [&](std::size_t end) {
    bool blank = true;
    for (std::size_t k = begin; k < end && blank; ++k) blank = trim(lines[k].text).empty();
    if (!blank) lesson.slides.push_back(parse_slide(lines, begin, end, file_name));
  };
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const auto [c, n] = fence_of(lines[k].text);
    if (fence == 0 && c != 0) {
      fence = c;
      fence_length = n;
    } else if (fence != 0 && c == fence && n >= fence_length && trim(lines[k].text).find_first_not_of(c) == std::string_view::npos) {
      fence = 0;
    } else if (fence == 0 && is_marker(lines[k].text, "---")) {
      flush(k);
      begin = k + 1;
    }
  }
  flush(lines.size());
  if (lesson.slides.empty()) {
    throw LessonError(file_name, 1, "", "no slides: a lesson is Markdown slides separated by \"---\" lines, "
                                        "each starting with e.g. \"view: rope-cos\"");
  }
  return lesson;
}

Lesson load_lesson(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LessonError(path.string(), 0, "", std::string("cannot read the file: ") + std::strerror(errno));
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxLessonBytes) {
    throw LessonError(path.string(), 0, "", "the file has " + format_bytes(size) + "; lessons are limited to " +
                                                format_bytes(kMaxLessonBytes));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_lesson(text.str(), path.string());
}

void check_lesson(Lesson& lesson, const ParameterTable& table) {
  std::vector<std::string> known = table.keys();
  known.push_back("animate");
  known.push_back("transition");
  for (auto& slide : lesson.slides) {
    for (const auto& s : slide.settings) {
      const ParameterInfo* p = table.find(s.key);
      if (!p) {
        const std::string near = closest_name(s.key, known);
        throw LessonError(lesson.file, s.line, s.key,
                          "unknown key" + (near.empty() ? std::string() : " (did you mean " + near + "?)") +
                              "; keys: " + joined(known));
      }
      if (p->kind != ParameterInfo::Kind::Text && !s.number)
        throw LessonError(lesson.file, s.line, s.key, "'" + s.text + "' is not a number");
      if (p->kind == ParameterInfo::Kind::Integer && *s.number != std::floor(*s.number))
        throw LessonError(lesson.file, s.line, s.key, "'" + s.text + "' is not a whole number");
      if (s.key == "view" && !table.views.empty() &&
          std::find(table.views.begin(), table.views.end(), s.text) == table.views.end()) {
        const std::string near = closest_name(s.text, table.views);
        throw LessonError(lesson.file, s.line, s.key,
                          "'" + s.text + "' is not a view" + (near.empty() ? std::string() : " (did you mean " + near + "?)") +
                              "; views: " + joined(table.views));
      }
    }
    if (slide.animation) {
      for (auto& track : slide.animation->tracks) {
        try {
          resolve_track(track, table);
        } catch (const AnimationError& e) {
          const std::string what = e.what();
          const std::string prefix = e.key() + ": ";
          throw LessonError(lesson.file, slide.animation_line, e.key(),
                            what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what);
        }
      }
    }
  }
}

}  // namespace pe
