#pragma once
// A lesson slide's Markdown (pe::TextBlock, parsed by core) drawn with ImGui: headings,
// paragraphs, nested bullet and numbered lists, block quotes, code, rules; bold, italic,
// `code` and links inside a line, each in its own DejaVu face (platform/imgui_theme.hpp).
// Lines wrap at word boundaries to `width`; a word wider than a line is broken.
#include <vector>

#include "pe/lesson_file.hpp"

namespace app {

// Draws the blocks at the cursor of the current window, `width` wide, and advances the
// cursor past them (so a scrolling child scrolls over them).
void draw_text_blocks(const std::vector<pe::TextBlock>& blocks, float width);

}  // namespace app
