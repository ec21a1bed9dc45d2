#include "ui/slide_text.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <string>
#include <string_view>

#include "plot/imgui_theme.hpp"

namespace app {
namespace {

// One piece of text on one line, already measured.
struct Run {
  ImFont* font = nullptr;
  float size = 0, x = 0, width = 0;
  std::string_view text;
  const pe::TextSpan* span = nullptr;
};

// The slide's own scale (shrink to fit, 1 = the fonts' size) and whether this pass draws or
// only measures: both set by the public functions for one layout pass.
float g_scale = 1.0f;
bool g_draw = true;
float g_measured_y = 0.0f;  // the layout height so far when only measuring

float font_size(const ImFont* font) { return font->FontSize * ImGui::GetIO().FontGlobalScale * g_scale; }

// ImGui::Dummy, or its height (and the item spacing after it) when measuring.
void advance(ImVec2 size) {
  if (g_draw) ImGui::Dummy(size);
  else g_measured_y += size.y + ImGui::GetStyle().ItemSpacing.y;
}

float text_width(ImFont* font, std::string_view s) {
  return font->CalcTextSizeA(font_size(font), FLT_MAX, 0.0f, s.data(), s.data() + s.size()).x;
}

ImFont* span_font(const pe::TextSpan& span, ImFont* base) {
  const plot::TextFonts& f = plot::text_fonts();
  if (span.code) return f.mono;
  if (base != f.regular) return base;  // headings: one face for the whole line
  if (span.bold && span.italic) return f.bold_italic;
  if (span.bold) return f.bold;
  if (span.italic) return f.italic;
  return f.regular;
}

// Lays the spans out in lines of at most `width`, breaking after spaces and at '\n'.
std::vector<std::vector<Run>> wrap(const std::vector<pe::TextSpan>& spans, ImFont* base, float width) {
  std::vector<std::vector<Run>> lines(1);
  float x = 0;
  auto place = [&](ImFont* font, std::string_view word, const pe::TextSpan& span) {
    float w = text_width(font, word);
    // Trailing spaces may hang past the edge; only the visible part must fit.
    const std::string_view visible = word.substr(0, word.find_last_not_of(' ') + 1);
    if (x > 0 && x + text_width(font, visible) > width) {
      lines.emplace_back();
      x = 0;
      if (visible.empty()) return;
    }
    while (text_width(font, visible) > width && word.size() > 1) {  // a word longer than a line
      std::size_t n = word.size() - 1;
      while (n > 1 && text_width(font, word.substr(0, n)) > width) --n;
      while (n > 1 && (static_cast<unsigned char>(word[n]) & 0xC0) == 0x80) --n;  // not inside a UTF-8 character
      lines.back().push_back({font, font_size(font), x, text_width(font, word.substr(0, n)), word.substr(0, n), &span});
      lines.emplace_back();
      x = 0;
      word = word.substr(n);
      w = text_width(font, word);
      if (text_width(font, word) <= width) break;
    }
    lines.back().push_back({font, font_size(font), x, w, word, &span});
    x += w;
  };
  for (const pe::TextSpan& span : spans) {
    ImFont* font = span_font(span, base);
    std::string_view rest = span.text;
    while (!rest.empty()) {
      const std::size_t nl = rest.find('\n');
      std::string_view piece = rest.substr(0, nl);
      while (!piece.empty()) {
        const std::size_t space = piece.find(' ');
        const std::size_t end = space == std::string_view::npos ? piece.size() : piece.find_first_not_of(' ', space);
        const std::size_t cut = end == std::string_view::npos ? piece.size() : end;
        place(font, piece.substr(0, cut), span);
        piece = piece.substr(cut);
      }
      if (nl == std::string_view::npos) break;
      lines.emplace_back();
      x = 0;
      rest = rest.substr(nl + 1);
    }
  }
  return lines;
}

ImU32 link_colour() { return ImGui::GetColorU32(ImGuiCol_PlotLinesHovered); }

// Draws wrapped lines at the cursor, starting `indent` in; returns nothing, advances the cursor.
void draw_lines(const std::vector<std::vector<Run>>& lines, float indent, float width, float min_line_height) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  // A tint of the text colour: visible on the dark and the light theme alike.
  const ImU32 code_bg = ImGui::GetColorU32(ImGuiCol_Text, 0.1f);
  for (const auto& line : lines) {
    float h = min_line_height;
    for (const Run& r : line) h = std::max(h, r.size);
    if (!g_draw) {
      advance({width, h});
      continue;
    }
    const ImVec2 at = ImGui::GetCursorScreenPos();
    for (std::size_t k = 0; k < line.size(); ++k) {
      const Run& r = line[k];
      const ImVec2 p(at.x + indent + r.x, at.y + (h - r.size));  // bottoms aligned
      const std::string_view visible = r.text.substr(0, r.text.find_last_not_of(' ') + 1);
      // One box per `code` span on a line: the spaces between its words are inside it.
      const bool code_continues = k + 1 < line.size() && line[k + 1].span == r.span;
      if (r.span->code && !visible.empty())
        dl->AddRectFilled({p.x - 1, p.y}, {p.x + (code_continues ? r.width : text_width(r.font, visible)) + 1, p.y + r.size},
                          code_bg, 2.0f);
      const bool link = !r.span->link.empty();
      dl->AddText(r.font, r.size, p, link ? link_colour() : text, r.text.data(), r.text.data() + r.text.size());
      if (link && !visible.empty())
        dl->AddLine({p.x, p.y + r.size}, {p.x + text_width(r.font, visible), p.y + r.size}, link_colour());
    }
    advance({width, h});
  }
}

void layout_text_blocks(const std::vector<pe::TextBlock>& blocks, float width);

}  // namespace

void draw_text_blocks(const std::vector<pe::TextBlock>& blocks, float width, float scale) {
  g_scale = scale;
  g_draw = true;
  layout_text_blocks(blocks, width);
  g_scale = 1.0f;
}

float text_blocks_height(const std::vector<pe::TextBlock>& blocks, float width, float scale) {
  g_scale = scale;
  g_draw = false;
  g_measured_y = 0.0f;
  layout_text_blocks(blocks, width);
  g_draw = true;
  g_scale = 1.0f;
  return g_measured_y;
}

float fitting_text_scale(const std::vector<pe::TextBlock>& blocks, float width, float height, float min_scale) {
  if (text_blocks_height(blocks, width, 1.0f) <= height) return 1.0f;
  if (text_blocks_height(blocks, width, min_scale) > height) return min_scale;
  // The height falls as the scale does (lines get shorter and fewer): bisect to 1 %.
  float lo = min_scale, hi = 1.0f;
  while (hi - lo > 0.01f) {
    const float mid = 0.5f * (lo + hi);
    (text_blocks_height(blocks, width, mid) <= height ? lo : hi) = mid;
  }
  return lo;
}

namespace {

void layout_text_blocks(const std::vector<pe::TextBlock>& blocks, float width) {
  const plot::TextFonts& fonts = plot::text_fonts();
  if (!fonts.regular) return;
  const float em = ImGui::GetFontSize() * g_scale;
  const float indent_step = 1.5f * em;
  // Lines of a paragraph at the font's own spacing, not ImGui's item spacing.
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, {ImGui::GetStyle().ItemSpacing.x, em * 0.15f});
  const ImGuiStyle& style = ImGui::GetStyle();
  bool first = true;
  for (const pe::TextBlock& b : blocks) {
    // Paragraph spacing: half a line between blocks, a full line above headings; list
    // items of one list sit closer.
    if (!first) advance({1, b.kind == pe::BlockKind::Heading ? em * 0.6f : (b.kind == pe::BlockKind::ListItem ? 0.0f : em * 0.35f)});
    first = false;
    const float quote = b.quote ? em : 0.0f;
    const float indent = quote + indent_step * float(b.depth);
    const float avail = std::max(em * 4, width - indent);
    const ImVec2 top = g_draw ? ImGui::GetCursorScreenPos() : ImVec2(0, 0);
    switch (b.kind) {
      case pe::BlockKind::Heading: {
        ImFont* font = b.level <= 2 ? fonts.heading : fonts.bold;
        draw_lines(wrap(b.spans, font, avail), indent, width, 0);
        break;
      }
      case pe::BlockKind::Paragraph:
        draw_lines(wrap(b.spans, fonts.regular, avail), indent, width, em);
        break;
      case pe::BlockKind::ListItem: {
        const std::string marker = b.ordered ? std::to_string(b.number) + "." : "\xE2\x80\xA2";  // •
        const float marker_x = indent - indent_step + (indent_step - text_width(fonts.regular, marker)) * 0.5f;
        if (g_draw)
          ImGui::GetWindowDrawList()->AddText(fonts.regular, font_size(fonts.regular), {top.x + marker_x, top.y},
                                              ImGui::GetColorU32(ImGuiCol_Text), marker.c_str());
        draw_lines(wrap(b.spans, fonts.regular, avail), indent, width, em);
        break;
      }
      case pe::BlockKind::Code: {
        // Code keeps its lines; the box is drawn first, under the text.
        const auto lines = wrap(b.spans, fonts.mono, avail - 2 * style.FramePadding.x);
        const float h = float(lines.size()) * font_size(fonts.mono) + 2 * style.FramePadding.y;
        if (g_draw)
          ImGui::GetWindowDrawList()->AddRectFilled({top.x + indent, top.y}, {top.x + indent + avail, top.y + h},
                                                    ImGui::GetColorU32(ImGuiCol_Text, 0.07f), style.FrameRounding);
        advance({1, style.FramePadding.y});
        std::vector<std::vector<Run>> plain = lines;
        for (auto& line : plain)
          for (Run& r : line) {
            static const pe::TextSpan kPlain;  // no inline-code boxes inside the block's box
            r.span = &kPlain;
          }
        draw_lines(plain, indent + style.FramePadding.x, width, font_size(fonts.mono));
        advance({1, style.FramePadding.y});
        break;
      }
      case pe::BlockKind::Rule:
        advance({1, em * 0.3f});
        if (g_draw) ImGui::Separator();
        else g_measured_y += 1.0f + style.ItemSpacing.y;
        break;
    }
    if (b.quote && g_draw) {
      const float bottom = ImGui::GetCursorScreenPos().y - style.ItemSpacing.y;
      ImGui::GetWindowDrawList()->AddRectFilled({top.x, top.y}, {top.x + em * 0.25f, bottom},
                                                ImGui::GetColorU32(ImGuiCol_Separator));
    }
  }
  ImGui::PopStyleVar();
}

}  // namespace

}  // namespace app
