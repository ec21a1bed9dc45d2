#include "plot/space_wrap.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // CalcWrapWidthForPos, the window's text wrap position

#include <cstdarg>
#include <cstdio>

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

ImVec2 wrapped_text_size(std::string_view text, float width) {
  const std::string lines = wrapped_at_spaces(text, width);
  return ImGui::CalcTextSize(lines.data(), lines.data() + lines.size(), false, width);
}

namespace {

// As TextWrapped: no wrap position pushed (< 0) means the content region's edge (0).
float current_wrap_pos() {
  const float pos = ImGui::GetCurrentWindowRead()->DC.TextWrapPos;
  return pos < 0.0f ? 0.0f : pos;
}

}  // namespace

float text_wrap_width() { return ImGui::CalcWrapWidthForPos(ImGui::GetCurrentWindowRead()->DC.CursorPos, current_wrap_pos()); }

void text_wrapped_unformatted(std::string_view text) {
  const std::string lines = wrapped_at_spaces(text, text_wrap_width());
  // Still wrapped by ImGui at the same width: a single word wider than the line breaks
  // rather than running out of the window.
  ImGui::PushTextWrapPos(current_wrap_pos());
  ImGui::TextUnformatted(lines.data(), lines.data() + lines.size());
  ImGui::PopTextWrapPos();
}

void text_wrapped(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  va_list copy;
  va_copy(copy, args);
  const int n = std::vsnprintf(nullptr, 0, fmt, copy);
  va_end(copy);
  std::string text(n > 0 ? std::size_t(n) : 0, '\0');
  if (n > 0) std::vsnprintf(text.data(), text.size() + 1, fmt, args);
  va_end(args);
  text_wrapped_unformatted(text);
}

}  // namespace app
