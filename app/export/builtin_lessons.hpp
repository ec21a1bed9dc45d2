#pragma once
// The lessons that ship inside the binary (assets/lessons/*.md, embedded at build time):
// `pe-viz lesson NAME`, `pe-viz export --lesson NAME DIR/`.
#include <string>
#include <string_view>
#include <vector>

namespace app {

struct BuiltinLesson {
  std::string name;              // the file's base name without ".md", e.g. "positional-encoding-101"
  std::string title;             // the first slide's first heading
  std::string_view markdown;     // the whole file (static storage)
};

// In teaching order: positional-encoding-101, rope-scaling-in-practice, multimodal-rope,
// then any other embedded lesson by name.
const std::vector<BuiltinLesson>& builtin_lessons();

// nullptr when no built-in lesson has that name.
const BuiltinLesson* find_builtin_lesson(std::string_view name);

}  // namespace app
