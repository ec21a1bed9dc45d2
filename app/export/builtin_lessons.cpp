#include "export/builtin_lessons.hpp"

#include <algorithm>
#include <array>

#include "pe/lessons/lesson_file.hpp"
#include "pe_lessons.hpp"

namespace app {
namespace {

constexpr std::array<std::string_view, 4> kTeachingOrder = {"positional-encoding-101", "rope-scaling-in-practice",
                                                            "multimodal-rope", "relative-positions"};

std::size_t rank(const std::string& name) {
  const auto it = std::find(kTeachingOrder.begin(), kTeachingOrder.end(), name);
  return std::size_t(it - kTeachingOrder.begin());
}

// The first heading of the first slide; a lesson that does not parse keeps its name as
// title (the built-in lessons test refuses it anyway).
std::string lesson_title(std::string_view markdown, const std::string& name) {
  try {
    const pe::Lesson lesson = pe::parse_lesson(markdown, name + ".md");
    for (const auto& slide : lesson.slides)
      if (std::string t = slide.title(); !t.empty()) return t;
  } catch (const pe::LessonError&) {
  }
  return name;
}

}  // namespace

const std::vector<BuiltinLesson>& builtin_lessons() {
  static const std::vector<BuiltinLesson> lessons = [] {
    std::vector<BuiltinLesson> out;
    for (const auto& f : pe_lessons::files()) {
      std::string name = f.name;
      if (name.size() > 3 && name.ends_with(".md")) name.resize(name.size() - 3);
      out.push_back({name, lesson_title(f.text(), name), f.text()});
    }
    std::stable_sort(out.begin(), out.end(), [](const BuiltinLesson& a, const BuiltinLesson& b) {
      const std::size_t ra = rank(a.name), rb = rank(b.name);
      return ra != rb ? ra < rb : a.name < b.name;
    });
    return out;
  }();
  return lessons;
}

const BuiltinLesson* find_builtin_lesson(std::string_view name) {
  for (const auto& l : builtin_lessons())
    if (l.name == name) return &l;
  return nullptr;
}

}  // namespace app
