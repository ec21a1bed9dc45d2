#pragma once
// Wrapping that breaks lines at spaces only. ImGui's own wrapping also breaks after '.', ','
// and ';', which splits a number in two ("p = 0." / "75"); text wrapped here first has its
// line breaks where a reader expects them.
#include <string>
#include <string_view>

namespace app {

// `text` with '\n' put in place of the spaces where a line would pass `width` pixels in the
// current font. Existing line breaks stay; a word wider than `width` keeps its own line.
std::string wrapped_at_spaces(std::string_view text, float width);

}  // namespace app
