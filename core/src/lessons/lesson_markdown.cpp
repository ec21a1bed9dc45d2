// Markdown → TextBlock through md4c's SAX-like callbacks (md4c.h), and TextBlock → HTML.
#include <md4c.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "pe/lessons/lesson_file.hpp"

namespace pe {
namespace {

// Appends code point `cp` as UTF-8 (U+FFFD for surrogates and values past U+10FFFF).
void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) cp = 0xFFFD;
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

// The named entities a lecture on positional encodings plausibly types (HTML5 names);
// any other "&name;" stays as written.
constexpr std::pair<const char*, std::uint32_t> kEntities[] = {
    {"amp", '&'},      {"lt", '<'},        {"gt", '>'},        {"quot", '"'},      {"apos", '\''},
    {"nbsp", 0xA0},    {"ndash", 0x2013},  {"mdash", 0x2014},  {"hellip", 0x2026}, {"times", 0xD7},
    {"middot", 0xB7},  {"deg", 0xB0},      {"plusmn", 0xB1},   {"pi", 0x3C0},      {"theta", 0x3B8},
    {"Theta", 0x398},  {"alpha", 0x3B1},   {"beta", 0x3B2},    {"lambda", 0x3BB},  {"delta", 0x3B4},
    {"Delta", 0x394},  {"rarr", 0x2192},   {"larr", 0x2190},   {"le", 0x2264},     {"ge", 0x2265},
    {"ne", 0x2260},    {"approx", 0x2248}, {"infin", 0x221E},  {"sum", 0x2211},    {"radic", 0x221A},
    {"copy", 0xA9},    {"sdot", 0x22C5},   {"minus", 0x2212},
};

std::string decode_entity(std::string_view e) {
  std::string out;
  if (e.size() >= 3 && e.front() == '&' && e.back() == ';') {
    const std::string_view body = e.substr(1, e.size() - 2);
    if (!body.empty() && body[0] == '#') {
      const bool hex = body.size() > 1 && (body[1] == 'x' || body[1] == 'X');
      std::uint32_t cp = 0;
      bool ok = body.size() > (hex ? 2u : 1u);
      for (std::size_t i = hex ? 2 : 1; ok && i < body.size(); ++i) {
        const char c = body[i];
        int digit = -1;
        if (c >= '0' && c <= '9') digit = c - '0';
        else if (hex && c >= 'a' && c <= 'f') digit = c - 'a' + 10;
        else if (hex && c >= 'A' && c <= 'F') digit = c - 'A' + 10;
        if (digit < 0) ok = false;
        else cp = std::min<std::uint32_t>(cp * (hex ? 16 : 10) + std::uint32_t(digit), 0x110000);
      }
      if (ok) {
        append_utf8(out, cp);
        return out;
      }
    } else {
      for (const auto& [name, cp] : kEntities) {
        if (body == name) {
          append_utf8(out, cp);
          return out;
        }
      }
    }
  }
  return std::string(e);
}

// Builds the flat block list while md4c walks the document.
class BlockBuilder {
 public:
  std::vector<TextBlock> blocks;

  int enter_block(MD_BLOCKTYPE type, void* detail) {
    switch (type) {
      case MD_BLOCK_QUOTE: close(); ++quote_; break;
      case MD_BLOCK_UL: close(); lists_.push_back({false, 0}); break;
      case MD_BLOCK_OL:
        close();
        lists_.push_back({true, int(std::min<unsigned>(static_cast<MD_BLOCK_OL_DETAIL*>(detail)->start, 1000000000u))});
        break;
      case MD_BLOCK_LI: {
        close();
        TextBlock& b = open(BlockKind::ListItem);
        if (!lists_.empty()) {
          b.ordered = lists_.back().ordered;
          if (b.ordered) b.number = lists_.back().next < 1000000000 ? lists_.back().next++ : lists_.back().next;
        }
        fresh_item_ = true;
        break;
      }
      case MD_BLOCK_HR: close(); open(BlockKind::Rule); close(); break;
      case MD_BLOCK_H:
        close();
        open(BlockKind::Heading).level = int(std::clamp<unsigned>(static_cast<MD_BLOCK_H_DETAIL*>(detail)->level, 1u, 6u));
        break;
      case MD_BLOCK_CODE: close(); open(BlockKind::Code); break;
      case MD_BLOCK_HTML: close(); ++html_; break;
      case MD_BLOCK_P:
        // An item's first paragraph is the item's own text (loose lists wrap it in <p>).
        if (fresh_item_ && current_ && blocks.back().spans.empty()) break;
        close();
        open(BlockKind::Paragraph);
        break;
      default:  // DOC; tables are not enabled
        break;
    }
    return 0;
  }

  int leave_block(MD_BLOCKTYPE type) {
    switch (type) {
      case MD_BLOCK_QUOTE: close(); quote_ = std::max(0, quote_ - 1); break;
      case MD_BLOCK_UL:
      case MD_BLOCK_OL:
        close();
        if (!lists_.empty()) lists_.pop_back();
        break;
      case MD_BLOCK_CODE:
        // md4c ends every code line with '\n'; the block's text should not end with one.
        if (current_ && !blocks.back().spans.empty()) {
          std::string& t = blocks.back().spans.back().text;
          if (!t.empty() && t.back() == '\n') t.pop_back();
          if (t.empty()) blocks.back().spans.pop_back();  // a block of one empty line
        }
        close();
        break;
      case MD_BLOCK_HTML: html_ = std::max(0, html_ - 1); break;
      case MD_BLOCK_LI:
      case MD_BLOCK_H:
      case MD_BLOCK_P: close(); break;
      default: break;
    }
    return 0;
  }

  int enter_span(MD_SPANTYPE type, void* detail) {
    switch (type) {
      case MD_SPAN_EM: ++italic_; break;
      case MD_SPAN_STRONG: ++bold_; break;
      case MD_SPAN_CODE: ++code_; break;
      case MD_SPAN_A: {
        const MD_ATTRIBUTE& href = static_cast<MD_SPAN_A_DETAIL*>(detail)->href;
        links_.emplace_back(href.text ? std::string(href.text, href.size) : std::string());
        break;
      }
      default: break;  // IMG: its alt text arrives as text
    }
    return 0;
  }

  int leave_span(MD_SPANTYPE type) {
    switch (type) {
      case MD_SPAN_EM: italic_ = std::max(0, italic_ - 1); break;
      case MD_SPAN_STRONG: bold_ = std::max(0, bold_ - 1); break;
      case MD_SPAN_CODE: code_ = std::max(0, code_ - 1); break;
      case MD_SPAN_A:
        if (!links_.empty()) links_.pop_back();
        break;
      default: break;
    }
    return 0;
  }

  int text(MD_TEXTTYPE type, const MD_CHAR* text, MD_SIZE size) {
    if (html_ > 0 || type == MD_TEXT_HTML) return 0;  // raw HTML and comments are dropped
    const std::string_view t(text, size);
    switch (type) {
      case MD_TEXT_NULLCHAR: append("\xEF\xBF\xBD"); break;  // U+FFFD, as CommonMark asks
      case MD_TEXT_BR: append("\n"); break;
      case MD_TEXT_SOFTBR: append(" "); break;
      case MD_TEXT_ENTITY: append(decode_entity(t)); break;
      default: append(t); break;
    }
    return 0;
  }

 private:
  struct List {
    bool ordered;
    int next;
  };

  TextBlock& open(BlockKind kind) {
    TextBlock b;
    b.kind = kind;
    b.depth = int(lists_.size());
    b.quote = quote_ > 0;
    blocks.push_back(std::move(b));
    current_ = true;
    fresh_item_ = false;
    return blocks.back();
  }

  void close() {
    current_ = false;
    fresh_item_ = false;
  }

  void append(std::string_view t) {
    if (t.empty()) return;
    if (!current_) open(BlockKind::Paragraph);  // text outside a block (defensive)
    TextBlock& b = blocks.back();
    TextSpan style;
    style.code = code_ > 0 || b.kind == BlockKind::Code;
    style.bold = bold_ > 0 && !style.code;
    style.italic = italic_ > 0 && !style.code;
    style.link = links_.empty() ? std::string() : links_.back();
    if (b.kind == BlockKind::Code) style.bold = style.italic = false;
    if (!b.spans.empty()) {
      TextSpan& last = b.spans.back();
      if (last.bold == style.bold && last.italic == style.italic && last.code == style.code && last.link == style.link) {
        last.text += t;
        return;
      }
    }
    style.text = std::string(t);
    b.spans.push_back(std::move(style));
  }

  std::vector<List> lists_;
  std::vector<std::string> links_;
  int quote_ = 0, html_ = 0, bold_ = 0, italic_ = 0, code_ = 0;
  bool current_ = false, fresh_item_ = false;
};

std::string escape_html(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

// Links from a lesson may end up in a page opened by students: no javascript: or data:.
bool safe_link(const std::string& href) {
  const std::size_t colon = href.find(':');
  const std::size_t slash = href.find_first_of("/?#");
  if (colon == std::string::npos || (slash != std::string::npos && slash < colon)) return true;  // relative
  std::string scheme = href.substr(0, colon);
  for (char& c : scheme)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return scheme == "http" || scheme == "https" || scheme == "mailto";
}

std::string spans_html(const std::vector<TextSpan>& spans) {
  std::string out;
  for (const auto& s : spans) {
    std::string text;
    for (char c : s.text) text += c == '\n' && !s.code ? std::string("<br>") : escape_html(std::string_view(&c, 1));
    if (s.code) text = "<code>" + text + "</code>";
    if (s.italic) text = "<em>" + text + "</em>";
    if (s.bold) text = "<strong>" + text + "</strong>";
    if (!s.link.empty() && safe_link(s.link)) text = "<a href=\"" + escape_html(s.link) + "\">" + text + "</a>";
    out += text;
  }
  return out;
}

}  // namespace

const char* to_string(BlockKind kind) {
  switch (kind) {
    case BlockKind::Heading: return "heading";
    case BlockKind::ListItem: return "list-item";
    case BlockKind::Code: return "code";
    case BlockKind::Rule: return "rule";
    case BlockKind::Paragraph: break;
  }
  return "paragraph";
}

std::string TextBlock::plain_text() const {
  std::string out;
  for (const auto& s : spans) out += s.text;
  return out;
}

std::vector<TextBlock> parse_markdown(std::string_view markdown) {
  BlockBuilder builder;
  MD_PARSER parser{};
  parser.abi_version = 0;
  // CommonMark plus permissive autolinks; HTML is recognised so that it can be dropped.
  parser.flags = MD_FLAG_PERMISSIVEAUTOLINKS;
  parser.enter_block = [](MD_BLOCKTYPE t, void* d, void* u) { return static_cast<BlockBuilder*>(u)->enter_block(t, d); };
  parser.leave_block = [](MD_BLOCKTYPE t, void*, void* u) { return static_cast<BlockBuilder*>(u)->leave_block(t); };
  parser.enter_span = [](MD_SPANTYPE t, void* d, void* u) { return static_cast<BlockBuilder*>(u)->enter_span(t, d); };
  parser.leave_span = [](MD_SPANTYPE t, void*, void* u) { return static_cast<BlockBuilder*>(u)->leave_span(t); };
  parser.text = [](MD_TEXTTYPE t, const MD_CHAR* s, MD_SIZE n, void* u) { return static_cast<BlockBuilder*>(u)->text(t, s, n); };
  // md_parse fails only when out of memory; what was built so far is still returned.
  md_parse(markdown.data(), MD_SIZE(std::min<std::size_t>(markdown.size(), 0xFFFFFFFFu)), &parser, &builder);
  return std::move(builder.blocks);
}

std::string blocks_to_html(const std::vector<TextBlock>& blocks) {
  std::string out;
  struct Open {
    bool ordered;
  };
  std::vector<Open> lists;  // lists[k] is the open list at depth k + 1, with an open <li>
  auto close_to = [&](std::size_t depth) {
    while (lists.size() > depth) {
      out += lists.back().ordered ? "</li></ol>\n" : "</li></ul>\n";
      lists.pop_back();
    }
  };
  for (const auto& b : blocks) {
    const std::size_t depth = std::size_t(std::max(b.depth, 0));
    if (b.kind == BlockKind::ListItem && depth > 0) {
      close_to(depth);
      if (lists.size() == depth && lists.back().ordered != b.ordered) close_to(depth - 1);
      if (lists.size() == depth) {
        out += "</li>\n<li>";
      } else {
        while (lists.size() < depth) {
          const bool ordered = lists.size() + 1 == depth && b.ordered;
          if (ordered && b.number != 1) out += "<ol start=\"" + std::to_string(b.number) + "\">\n<li>";
          else out += ordered ? "<ol>\n<li>" : "<ul>\n<li>";
          lists.push_back({ordered});
        }
      }
      out += spans_html(b.spans);
      continue;
    }
    close_to(std::min(depth, lists.size()));
    std::string html;
    switch (b.kind) {
      case BlockKind::Heading: {
        const std::string h = std::to_string(std::clamp(b.level, 1, 6));
        html = "<h" + h + ">" + spans_html(b.spans) + "</h" + h + ">";
        break;
      }
      case BlockKind::Code: html = "<pre><code>" + escape_html(b.plain_text()) + "</code></pre>"; break;
      case BlockKind::Rule: html = "<hr>"; break;
      default: html = "<p>" + spans_html(b.spans) + "</p>"; break;
    }
    if (b.quote) html = "<blockquote>" + html + "</blockquote>";
    out += lists.empty() ? html + "\n" : "\n" + html;
  }
  close_to(0);
  return out;
}

}  // namespace pe
