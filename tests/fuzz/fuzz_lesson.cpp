// bytes → pe::parse_lesson → pe::check_lesson (against a table shaped like the app's).
// Refusal must be a LessonError naming a line inside the file; an accepted lesson must have
// a view on every slide, settings with lines inside the file, resolved animations whose
// values at any progress are finite (and exactly the end points at 0 and 1), and blocks
// that turn into HTML without raw '<' from the input.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "pe/lessons/lesson_file.hpp"

namespace {

pe::ParameterTable table() {
  using K = pe::ParameterInfo::Kind;
  pe::ParameterTable t;
  t.parameters = {{"view", K::Text},
                  {"preset", K::Text},
                  {"scaling", K::Text},
                  {"theta", K::Number, true, pe::AnimationScale::Log},
                  {"dim", K::Integer, true, pe::AnimationScale::Linear, 2},
                  {"length", K::Integer, true, pe::AnimationScale::Log},
                  {"position", K::Integer, true},
                  {"factor", K::Number, true},
                  {"ui-scale", K::Number, false}};
  t.views = {"rope-cos", "clock-hands", "alibi"};
  return t;
}

void check_blocks(const std::vector<pe::TextBlock>& blocks) {
  for (const auto& b : blocks) {
    PE_FUZZ_CHECK(b.depth >= 0, std::to_string(b.depth));
    PE_FUZZ_CHECK(b.kind != pe::BlockKind::Heading || (b.level >= 1 && b.level <= 6), std::to_string(b.level));
    for (const auto& s : b.spans) PE_FUZZ_CHECK(!s.text.empty(), "empty span");
  }
  const std::string html = pe::blocks_to_html(blocks);
  // Every '<' in the fragment opens one of our tags: text and attributes are escaped.
  for (std::size_t at = html.find('<'); at != std::string::npos; at = html.find('<', at + 1)) {
    static const char* tags[] = {"h1", "h2", "h3", "h4", "h5", "h6", "/h", "p>", "/p>", "ul>", "/ul>", "ol>", "ol ", "/ol>",
                                 "li>", "/li>", "pre>", "/pre>", "code>", "/code>", "em>", "/em>", "strong>", "/strong>",
                                 "a href=", "/a>", "br>", "hr>", "blockquote>", "/blockquote>"};
    bool ours = false;
    for (const char* t : tags) ours = ours || html.compare(at + 1, std::char_traits<char>::length(t), t) == 0;
    PE_FUZZ_CHECK(ours, html.substr(at, 40));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const pe::ParameterTable kTable = table();
  const std::string text(reinterpret_cast<const char*>(data), size);
  const int lines = 1 + static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  pe::Lesson lesson;
  try {
    lesson = pe::parse_lesson(text, "fuzz.md");
    pe::check_lesson(lesson, kTable);
  } catch (const pe::LessonError& e) {
    PE_FUZZ_CHECK(!e.message().empty(), "empty LessonError message");
    PE_FUZZ_CHECK(e.file() == "fuzz.md", e.file());
    PE_FUZZ_CHECK(e.line() >= 0 && e.line() <= lines, std::to_string(e.line()) + " of " + std::to_string(lines));
    return 0;
  }
  PE_FUZZ_CHECK(!lesson.slides.empty(), "accepted a lesson without slides");
  for (const auto& slide : lesson.slides) {
    PE_FUZZ_CHECK(!slide.view.empty(), "slide without a view");
    PE_FUZZ_CHECK(slide.line >= 1 && slide.line <= lines, std::to_string(slide.line));
    for (const auto& s : slide.settings) {
      PE_FUZZ_CHECK(s.line >= slide.line && s.line <= lines, s.key + " line " + std::to_string(s.line));
      PE_FUZZ_CHECK(kTable.find(s.key) != nullptr, s.key);
    }
    if (slide.animation) {
      PE_FUZZ_CHECK(slide.animation->seconds > 0 && slide.animation->seconds <= 3600, "duration");
      for (const auto& t : slide.animation->tracks) {
        PE_FUZZ_CHECK(t.scale != pe::AnimationScale::Auto, t.key + " unresolved");
        for (double u : {0.0, 0.25, 0.5, 1.0}) {
          const double v = pe::track_value(t, u);
          PE_FUZZ_CHECK(std::isfinite(v), t.key + " at " + std::to_string(u));
        }
        if (t.step == 0) {
          PE_FUZZ_CHECK(pe::track_value(t, 0.0) == t.from, t.key + " start");
          PE_FUZZ_CHECK(pe::track_value(t, 1.0) == t.to, t.key + " end");
        }
      }
    }
    PE_FUZZ_CHECK(slide.transition.seconds >= 0 && slide.transition.seconds <= 60, "transition");
    check_blocks(slide.body);
    check_blocks(slide.notes);
  }
  return 0;
}
