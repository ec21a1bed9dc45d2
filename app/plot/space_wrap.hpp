#pragma once
// Wrapping that breaks lines at spaces only. ImGui's own wrapping also breaks after '.', ','
// and ';', which splits a number in two ("p = 0." / "75"); text wrapped here first has its
// line breaks where a reader expects them. In plot/ so that views, the main frame's panels
// and the plots themselves can all use it.
#include <imgui.h>

#include <string>
#include <string_view>

namespace app {

// `text` with '\n' put in place of the spaces where a line would pass `width` pixels in the
// current font. Existing line breaks stay; a word wider than `width` keeps its own line.
std::string wrapped_at_spaces(std::string_view text, float width);

// The size `text` takes wrapped at spaces to `width` (for laying out before drawing).
ImVec2 wrapped_text_size(std::string_view text, float width);

// The width ImGui::TextWrapped would wrap at here: up to the pushed wrap position
// (PushTextWrapPos), else to the edge of the content region (a table cell's, in a table).
float text_wrap_width();

// ImGui::TextWrapped with its line breaks at spaces (the same width, the same look): for
// notes, captions and table cells with numbers in them.
void text_wrapped(const char* fmt, ...) IM_FMTARGS(1);
void text_wrapped_unformatted(std::string_view text);

}  // namespace app
