// Lesson files (pe/lessons/lesson_file.hpp): slides, headers, notes, the styled-text model md4c's
// parse becomes (expected structures written out by hand), HTML, and errors that name
// file, line and key.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <ostream>

#include "pe/lessons/lesson_file.hpp"

namespace pe {
// Readable failures: a block as kind/depth and its spans with their styles.
void PrintTo(const TextBlock& b, std::ostream* os) {
  *os << "{" << to_string(b.kind) << " level " << b.level << " depth " << b.depth << (b.ordered ? " #" + std::to_string(b.number) : "")
      << (b.quote ? " quote" : "");
  for (const auto& s : b.spans)
    *os << " [" << (s.bold ? "B" : "") << (s.italic ? "I" : "") << (s.code ? "C" : "") << (s.link.empty() ? "" : " ->" + s.link)
        << " \"" << s.text << "\"]";
  *os << "}";
}
}  // namespace pe

namespace {

using pe::BlockKind;
using pe::LessonError;
using pe::TextBlock;
using pe::TextSpan;

TextSpan plain(std::string t) { return {std::move(t)}; }
TextSpan bold(std::string t) { return {std::move(t), true}; }
TextSpan italic(std::string t) { return {std::move(t), false, true}; }
TextSpan code(std::string t) { return {std::move(t), false, false, true}; }

TextBlock heading(int level, std::vector<TextSpan> spans) {
  TextBlock b;
  b.kind = BlockKind::Heading;
  b.level = level;
  b.spans = std::move(spans);
  return b;
}
TextBlock paragraph(std::vector<TextSpan> spans, int depth = 0) {
  TextBlock b;
  b.depth = depth;
  b.spans = std::move(spans);
  return b;
}
TextBlock item(int depth, std::vector<TextSpan> spans, bool ordered = false, int number = 0) {
  TextBlock b;
  b.kind = BlockKind::ListItem;
  b.depth = depth;
  b.ordered = ordered;
  b.number = number;
  b.spans = std::move(spans);
  return b;
}

pe::ParameterTable app_like_table() {
  using K = pe::ParameterInfo::Kind;
  pe::ParameterTable t;
  t.parameters = {{"view", K::Text},
                  {"preset", K::Text},
                  {"scaling", K::Text},
                  {"theta", K::Number, true, pe::AnimationScale::Log},
                  {"factor", K::Number, true},
                  {"dim", K::Integer, true, pe::AnimationScale::Linear, 2},
                  {"length", K::Integer, true, pe::AnimationScale::Log},
                  {"position", K::Integer, true},
                  {"theta-low", K::Number, true, pe::AnimationScale::Log}};
  t.views = {"rope-cos", "rope-spectrum", "clock-hands"};
  return t;
}

// The brief's example lesson: two slides, an animation, notes.
constexpr const char* kLesson = R"(view: clock-hands
theta: 10000
position: 0
animate: position 0 -> 64 over 4 s

# Every pair is a clock hand

Pair *i* turns by **p·θ_i** per position; see `clock-hands`.

- fast pairs
  - pair 0: one radian
- slow pairs
???
Ask which hand is slowest.
---
View: rope-spectrum
theta_low: 100
transition: cut
animate: position 0 -> 64, theta 100 -> 1e6 (log) over 6 s
## Wavelengths

1. short
2. long
)";

TEST(LessonFile, SlidesHeadersAndBodies) {
  const pe::Lesson lesson = pe::parse_lesson(kLesson, "intro.md");
  EXPECT_EQ(lesson.file, "intro.md");
  ASSERT_EQ(lesson.slides.size(), 2u);

  const pe::LessonSlide& a = lesson.slides[0];
  EXPECT_EQ(a.line, 1);
  EXPECT_EQ(a.view, "clock-hands");
  const std::vector<pe::LessonSetting> settings_a = {
      {"view", "clock-hands", std::nullopt, 1}, {"theta", "10000", 10000.0, 2}, {"position", "0", 0.0, 3}};
  EXPECT_EQ(a.settings, settings_a);
  ASSERT_TRUE(a.animation);
  EXPECT_EQ(a.animation_line, 4);
  ASSERT_EQ(a.animation->tracks.size(), 1u);
  EXPECT_EQ(a.animation->tracks[0].key, "position");
  EXPECT_EQ(a.animation->seconds, 4.0);
  EXPECT_EQ(a.transition, pe::SlideTransition{});  // glide 0.5 s by default
  const std::vector<TextBlock> body_a = {
      heading(1, {plain("Every pair is a clock hand")}),
      paragraph({plain("Pair "), italic("i"), plain(" turns by "), bold("p·θ_i"), plain(" per position; see "),
                 code("clock-hands"), plain(".")}),
      item(1, {plain("fast pairs")}),
      item(2, {plain("pair 0: one radian")}),
      item(1, {plain("slow pairs")}),
  };
  EXPECT_EQ(a.body, body_a);
  EXPECT_EQ(a.notes, std::vector<TextBlock>{paragraph({plain("Ask which hand is slowest.")})});
  EXPECT_EQ(a.title(), "Every pair is a clock hand");

  const pe::LessonSlide& b = lesson.slides[1];
  EXPECT_EQ(b.line, 16);
  EXPECT_EQ(b.view, "rope-spectrum");
  const std::vector<pe::LessonSetting> settings_b = {{"view", "rope-spectrum", std::nullopt, 16},
                                                     {"theta-low", "100", 100.0, 17}};
  EXPECT_EQ(b.settings, settings_b);
  EXPECT_EQ(b.transition.kind, pe::SlideTransition::Kind::Cut);
  ASSERT_TRUE(b.animation);
  EXPECT_EQ(b.animation_line, 19);
  EXPECT_EQ(b.animation->tracks.size(), 2u);
  EXPECT_EQ(b.animation->seconds, 6.0);
  const std::vector<TextBlock> body_b = {heading(2, {plain("Wavelengths")}), item(1, {plain("short")}, true, 1),
                                         item(1, {plain("long")}, true, 2)};
  EXPECT_EQ(b.body, body_b);
  EXPECT_TRUE(b.notes.empty());
}

TEST(LessonFile, SeparatorsInsideCodeFencesAndEmptySlides) {
  const char* text =
      "---\n"
      "view: rope-cos\n"
      "\n"
      "```\n"
      "---\n"
      "???\n"
      "```\n"
      "---  \r\n"
      "   \n"
      "---\n"
      "view: clock-hands\r\n"
      "text\r\n";
  const pe::Lesson lesson = pe::parse_lesson(text);
  ASSERT_EQ(lesson.slides.size(), 2u);
  TextBlock fence;
  fence.kind = BlockKind::Code;
  fence.spans = {code("---\n???")};
  EXPECT_EQ(lesson.slides[0].body, std::vector<TextBlock>{fence});
  EXPECT_TRUE(lesson.slides[0].notes.empty());
  EXPECT_EQ(lesson.slides[1].line, 11);
  EXPECT_EQ(lesson.slides[1].view, "clock-hands");  // CR removed
  EXPECT_EQ(lesson.slides[1].body, std::vector<TextBlock>{paragraph({plain("text")})});
}

TEST(LessonFile, HeaderEndsAtTheFirstOtherLine) {
  // No blank line needed: the heading ends the header. A quoted value loses its quotes.
  const pe::Lesson lesson = pe::parse_lesson("view: rope-cos\npreset: \"llama-2-7b\"\n# Title\nNote: body text\n");
  const auto& s = lesson.slides[0];
  ASSERT_EQ(s.settings.size(), 2u);
  EXPECT_EQ(s.settings[1].text, "llama-2-7b");
  const std::vector<TextBlock> body = {heading(1, {plain("Title")}), paragraph({plain("Note: body text")})};
  EXPECT_EQ(s.body, body);
}

TEST(Markdown, NestedListsParagraphsInItemsQuotesRulesLinks) {
  const char* md =
      "3. three\n"
      "\n"
      "   more about three\n"
      "4. four\n"
      "   - *sub* **bold *both***\n"
      "\n"
      "> quoted\n"
      "\n"
      "***\n"
      "\n"
      "A [link](https://example.org) and <b>raw</b> html<!-- note -->.  \n"
      "next line &amp; &theta; &#8594; &#x3b8; &bogus;\n";
  TextBlock three = item(1, {plain("three")}, true, 3), more = paragraph({plain("more about three")}, 1),
            four = item(1, {plain("four")}, true, 4);
  TextSpan both = {"both", true, true};
  TextBlock sub = item(2, {italic("sub"), plain(" "), bold("bold "), both});
  TextBlock quote = paragraph({plain("quoted")});
  quote.quote = true;
  TextBlock rule;
  rule.kind = BlockKind::Rule;
  TextSpan link = {"link", false, false, false, "https://example.org"};
  TextBlock para = paragraph({plain("A "), link, plain(" and raw html.\nnext line & θ → θ &bogus;")});
  const std::vector<TextBlock> expected = {three, more, four, sub, quote, rule, para};
  EXPECT_EQ(pe::parse_markdown(md), expected);
}

TEST(Markdown, HtmlOfTheModel) {
  const auto blocks = pe::parse_markdown(
      "# T < x & y\n\n- a\n  - b\n- c\n\n1. one\n\nx **y** `z` [l](javascript:alert(1)) [m](notes.html)\n\n```\na<b\n```\n");
  EXPECT_EQ(pe::blocks_to_html(blocks),
            "<h1>T &lt; x &amp; y</h1>\n"
            "<ul>\n<li>a<ul>\n<li>b</li></ul>\n</li>\n<li>c</li></ul>\n"
            "<ol>\n<li>one</li></ol>\n"
            "<p>x <strong>y</strong> <code>z</code> l <a href=\"notes.html\">m</a></p>\n"
            "<pre><code>a&lt;b</code></pre>\n");
}

TEST(Markdown, NeverThrowsOnOddInput) {
  for (const char* md : {"", "\n\n", "*", "**", "`", "> > > >", "- - - -", "1.", "&#0;&#xFFFFFFFF;&#55296;", "<!--",
                         "\x01\x02\xff\xfe", "[x](", "    indented code"}) {
    const auto blocks = pe::parse_markdown(md);
    (void)pe::blocks_to_html(blocks);
  }
  // A fenced block of one empty line is a code block without spans (fuzz_lesson's find).
  const auto empty_code = pe::parse_markdown("```\n\n```\n");
  ASSERT_EQ(empty_code.size(), 1u);
  EXPECT_EQ(empty_code[0].kind, BlockKind::Code);
  EXPECT_TRUE(empty_code[0].spans.empty());
  // Numeric entities that are not characters become U+FFFD.
  const auto b = pe::parse_markdown("&#0;&#xD800;&#x110000;");
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].plain_text(), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
}

// ---- errors: file, line, key --------------------------------------------------------

LessonError parse_error(const std::string& text) {
  try {
    pe::Lesson l = pe::parse_lesson(text, "deck.md");
    auto table = app_like_table();
    pe::check_lesson(l, table);
  } catch (const LessonError& e) {
    return e;
  }
  ADD_FAILURE() << "accepted:\n" << text;
  return LessonError("", 0, "", "");
}

TEST(LessonErrors, NameFileLineAndKey) {
  struct Case {
    std::string text;
    int line;
    std::string key, message_part;
  };
  const std::vector<Case> cases = {
      {"", 1, "", "no slides"},
      {"\n---\n  \n", 1, "", "no slides"},
      {"theta: 5\n# x\n", 1, "view", "no `view:` line"},
      {"view: rope-cos\n---\n\n\n# no header\n", 5, "view", "no `view:` line"},
      {"view: rope-cos\ntheta:\n", 2, "theta", "no value"},
      {"view: rope-cos\ntheta: 1\nTheta: 2\n", 3, "theta", "set twice"},
      {"view: rope-cos\nanimate: position 0 -> 1 over 1 s\nanimate: position 0 -> 1 over 1 s\n", 3, "animate", "set twice"},
      {"view: rope-cos\nanimate: position 0 -> 64\n", 2, "animate", "no duration"},
      {"view: rope-cos\nanimate: position 0 -> x over 2 s\n", 2, "position", "end value 'x'"},
      {"view: rope-cos\ntransition: fade\n", 2, "transition", "not \"cut\" or \"glide"},
      {"view: rope-cos\ntransition: glide 90 s\n", 2, "transition", "0 < SECONDS <= 60"},
      // check_lesson: against the table
      {"view: rope-cos\nthetta: 500000\n", 2, "thetta", "unknown key (did you mean theta?); keys: view, preset"},
      {"view: rope-cos\n---\nview: clock-hands\nzoom: 2\n", 4, "zoom", "unknown key; keys:"},
      {"view: rope-cos\nthetaa-low: 5\n", 2, "thetaa-low", "did you mean theta-low?"},
      {"view: rope-cos\ntheta: big\n", 2, "theta", "'big' is not a number"},
      {"view: rope-cos\ndim: 64.5\n", 2, "dim", "'64.5' is not a whole number"},
      {"view: rope-coss\n", 1, "view", "'rope-coss' is not a view (did you mean rope-cos?); views: rope-cos, rope-spectrum"},
      {"view: rope-cos\n\n# t\n---\nview: clock-hands\nanimate: scaling 0 -> 1 over 2 s\n", 6, "scaling",
       "is not numeric and cannot be animated"},
      {"view: rope-cos\nanimate: position 0 -> 4, postion 0 -> 64 over 2 s\n", 2, "postion", "did you mean position?"},
      {"view: rope-cos\nanimate: theta 0 -> 100 over 2 s\n", 2, "theta", "log-scale animation needs start and end > 0"},
  };
  for (const auto& c : cases) {
    const LessonError e = parse_error(c.text);
    EXPECT_EQ(e.file(), "deck.md") << c.text;
    EXPECT_EQ(e.line(), c.line) << c.text << "\n" << e.what();
    EXPECT_EQ(e.key(), c.key) << c.text << "\n" << e.what();
    EXPECT_NE(e.message().find(c.message_part), std::string::npos) << c.text << "\n" << e.what();
    const std::string prefix = "deck.md:" + std::to_string(c.line) + ": " + (c.key.empty() ? "" : c.key + ": ");
    EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
  }
}

TEST(LessonCheck, ResolvesAnimationsAgainstTheTable) {
  pe::Lesson l = pe::parse_lesson(kLesson, "intro.md");
  pe::check_lesson(l, app_like_table());
  const auto& tracks = l.slides[1].animation->tracks;
  EXPECT_EQ(tracks[0].scale, pe::AnimationScale::Linear);
  EXPECT_EQ(tracks[0].step, 1);  // position is an integer
  EXPECT_EQ(tracks[1].scale, pe::AnimationScale::Log);
  EXPECT_EQ(tracks[1].step, 0);
}

TEST(LessonFile, LoadNamesAnUnreadableFileAndLimitsSize) {
  try {
    pe::load_lesson("/nonexistent/dir/lesson.md");
    ADD_FAILURE();
  } catch (const LessonError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/lesson.md: cannot read the file"), std::string::npos) << e.what();
  }
  const std::string big(pe::kMaxLessonBytes + 1, 'a');
  try {
    pe::parse_lesson(big, "big.md");
    ADD_FAILURE();
  } catch (const LessonError& e) {
    EXPECT_NE(std::string(e.what()).find("lessons are limited to 8 MiB"), std::string::npos) << e.what();
  }
  const auto path = std::filesystem::temp_directory_path() / "pe_viz_lesson_file_test.md";
  {
    std::ofstream out(path, std::ios::binary);
    out << "\xEF\xBB\xBFview: rope-cos\n";  // with a byte order mark
  }
  const pe::Lesson l = pe::load_lesson(path);
  EXPECT_EQ(l.file, path.string());
  EXPECT_EQ(l.slides.at(0).view, "rope-cos");
  std::filesystem::remove(path);
}

}  // namespace
