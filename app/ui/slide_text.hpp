#pragma once
// A lesson slide's Markdown (pe::TextBlock, parsed by core) drawn with ImGui: headings,
// paragraphs, nested bullet and numbered lists, block quotes, code, rules; bold, italic,
// `code` and links inside a line, each in its own DejaVu face (plot/imgui_theme.hpp).
// Lines wrap at word boundaries to `width`; a word wider than a line is broken.
#include <vector>

#include "pe/lessons/lesson_file.hpp"

namespace app {

// Draws the blocks at the cursor of the current window, `width` wide, and advances the
// cursor past them (so a scrolling child scrolls over them). `scale` shrinks the text
// (fonts and spacing) to fit a panel.
void draw_text_blocks(const std::vector<pe::TextBlock>& blocks, float width, float scale = 1.0f);
// The height draw_text_blocks takes, without drawing.
float text_blocks_height(const std::vector<pe::TextBlock>& blocks, float width, float scale = 1.0f);
// The largest scale in [min_scale, 1] at which the blocks fit `height` (min_scale when none
// does: the panel then scrolls).
float fitting_text_scale(const std::vector<pe::TextBlock>& blocks, float width, float height, float min_scale = 0.75f);

}  // namespace app
