#pragma once
// Text cut off by the edge of the window or child that holds it (app/ui/cut_text.hpp's
// "scissor" kind: half a letter at a window's edge). The wide desktop layout is held to this;
// the narrow layout (narrow_layout_test, the browser tests) to every kind of cut.
// Used by text_clipping_test (every view) and presenter_test (lesson slides).
#include <imgui.h>

#include <string>
#include <vector>

#include "ui/cut_text.hpp"

namespace pe_test {

using Clipped = app::CutText;

inline std::vector<Clipped> clipped_text(const ImDrawData& data) {
  std::vector<Clipped> cuts = app::find_cut_text(data);
  std::erase_if(cuts, [](const Clipped& c) { return c.kind != app::CutText::Kind::Scissor; });
  return cuts;
}

// describe(cuts) is app::describe, found by argument-dependent lookup.

}  // namespace pe_test
