#include "plot/space_wrap.hpp"

#include <imgui.h>

namespace app {

std::string wrapped_at_spaces(std::string_view text, float width) {
  std::string out;
  out.reserve(text.size());
  std::size_t line = 0;  // where the current line starts in `text`
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t word = i;  // a word and the spaces after it
    while (i < text.size() && text[i] != ' ' && text[i] != '\n') ++i;
    const std::size_t word_end = i;
    const float w = ImGui::CalcTextSize(text.data() + line, text.data() + word_end).x;
    if (w > width && word > line) {
      // Break before this word: drop the spaces that ended the line.
      while (!out.empty() && out.back() == ' ') out.pop_back();
      out += '\n';
      line = word;
    }
    out.append(text.substr(word, word_end - word));
    while (i < text.size() && text[i] == ' ') out += text[i++];
    if (i < text.size() && text[i] == '\n') {
      out += text[i++];
      line = i;
    }
  }
  return out;
}

}  // namespace app
