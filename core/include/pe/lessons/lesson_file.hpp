#pragma once
// Lesson files: a lecture as one Markdown file, each slide naming the view and the
// parameters to show. Pure parsing (no GL, no AppState): the app checks the keys against
// its ParameterTable and applies each slide's settings through the same code as the
// command line and sessions (app/export/lesson_validation.hpp).
//
// The format follows remark.js (slides separated by "---", "key: value" slide properties
// at the top of a slide, "???" before speaker notes), so lecturers meet nothing new:
//
//     view: clock-hands                       <- header: "key: value" lines at the top
//     theta: 10000                               (keys as the command-line options;
//     position: 0                                 theta_low = theta-low)
//     animate: position 0 -> 64 over 4 s
//
//     # Every pair is a clock hand            <- body: Markdown (CommonMark, via md4c)
//
//     - pair *i* turns by **p·θ_i**
//       - the first pair fastest
//     - `dim` pairs in all
//     ???                                     <- speaker notes (not on the slide)
//     Ask which hand is slowest.
//     ---                                     <- next slide
//     view: rope-spectrum
//     ...
//
// Rules:
//  - A line holding exactly "---" (outside fenced code) separates slides; use "***" for a
//    horizontal rule inside a slide. Slides with nothing but blank lines are skipped.
//  - The header is the slide's first lines of the form `key: value`; the first line that is
//    not (a blank line, a heading, text) ends it. Each key at most once per slide. Keys are
//    case-insensitive, '_' and '-' are the same; a value in double quotes loses them.
//  - `view` is required on every slide. Other keys are kept as LessonSettings, in file
//    order, for the app to check and apply; settings carry over to later slides (a slide
//    changes what it names; the presenter applies the slides in order).
//  - `animate:` runs when the slide is shown: KEY FROM -> TO [(log)|(linear)] {, ...} over
//    SECONDS s (pe/lessons/animation.hpp). `transition: cut` or `transition: glide [SECONDS s]`
//    says how the presenter moves from the previous slide's numbers (default: glide 0.5 s,
//    eased with smoothstep).
//  - A line holding exactly "???" starts the speaker notes (Markdown too).
//  - Markdown: headings, paragraphs, bullet and numbered lists (nested), **bold**,
//    *italic*, `code`, fenced code blocks, links, block quotes, ***. Raw HTML and HTML
//    comments are dropped (comments are handy for lecturer's remarks).
#include "pe/lessons/module_guard.hpp"
#include <cstddef>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "pe/lessons/animation.hpp"

namespace pe {

// A refused lesson: the message names the file, the line and the key.
// what() is "<file>:<line>: <key>: <message>" (without the key part when there is none).
class LessonError : public std::runtime_error {
 public:
  LessonError(std::string file, int line, std::string key, std::string message);
  const std::string& file() const noexcept { return file_; }
  int line() const noexcept { return line_; }
  const std::string& key() const noexcept { return key_; }
  const std::string& message() const noexcept { return message_; }

 private:
  std::string file_;
  int line_;
  std::string key_, message_;
};

// ---- styled text: what a slide's Markdown becomes -------------------------------------

// A run of text in one style. Line breaks inside a paragraph are '\n' (hard) or ' ' (soft).
struct TextSpan {
  std::string text;  // UTF-8, entities decoded
  bool bold = false, italic = false, code = false;
  std::string link;  // target of a [link](...) ("" when not a link)
  bool operator==(const TextSpan&) const = default;
};

enum class BlockKind { Heading, Paragraph, ListItem, Code, Rule };
const char* to_string(BlockKind kind);

// One block, flat: nesting is in `depth` (a GUI indents by it, HTML re-nests the lists).
struct TextBlock {
  BlockKind kind = BlockKind::Paragraph;
  int level = 0;     // Heading: 1 ... 6
  int depth = 0;     // list nesting: 0 outside lists; a top-level item and its paragraphs 1
  bool ordered = false;  // ListItem: numbered list
  int number = 0;        // ListItem of a numbered list: its number (from the list's start)
  bool quote = false;    // inside a > block quote
  std::vector<TextSpan> spans;  // Code: one span, code = true, the lines joined by '\n'
  std::string plain_text() const;  // the spans' text, concatenated
  bool operator==(const TextBlock&) const = default;
};

// CommonMark (md4c) → blocks. Never throws on any input.
std::vector<TextBlock> parse_markdown(std::string_view markdown);

// The blocks as an HTML fragment (escaped; lists nested again; links only http(s),
// mailto or relative).
std::string blocks_to_html(const std::vector<TextBlock>& blocks);

// ---- slides ---------------------------------------------------------------------------

// One header line other than animate/transition, e.g. {"theta", "500000", 500000, 3}.
struct LessonSetting {
  std::string key;                // normalized: lower case, '-' for '_'
  std::string text;               // the value as written (trimmed, quotes removed)
  std::optional<double> number;   // when the whole text is a finite number
  int line = 0;                   // 1-based line in the file
  bool operator==(const LessonSetting&) const = default;
};

struct SlideTransition {
  enum class Kind { Glide, Cut };
  Kind kind = Kind::Glide;
  double seconds = 0.5;
  bool operator==(const SlideTransition&) const = default;
};

struct LessonSlide {
  int line = 0;                         // first line of the slide's header
  std::string view;                     // the `view` setting's text (also in settings)
  std::vector<LessonSetting> settings;  // in file order, including view
  std::optional<Animation> animation;
  int animation_line = 0;
  SlideTransition transition;
  std::vector<TextBlock> body, notes;
  const LessonSetting* find(std::string_view key) const;
  std::string title() const;  // the first heading's text, or ""
};

struct Lesson {
  std::string file;  // as given to the parser: used in every message
  std::vector<LessonSlide> slides;
};

inline constexpr std::size_t kMaxLessonBytes = 8u << 20;  // 8 MiB of Markdown is not a lecture

// Splits, reads headers, parses `animate` and `transition`, converts the Markdown. Throws
// LessonError (file, line, key): a header line without a value, a key twice, a bad
// animate/transition line, a slide without `view`, no slides at all, too large a file.
Lesson parse_lesson(std::string_view text, const std::string& file_name = "lesson.md");
// Reads the file (throws LessonError naming it when unreadable) and parses it.
Lesson load_lesson(const std::filesystem::path& path);

// Checks every setting against the app's table: known key (else the closest is suggested),
// numbers where numbers are expected (whole numbers for Integer keys), a known view, and
// animated keys numeric and animatable; resolves the animation tracks (scale, rounding
// step). Throws LessonError naming file, line and key.
void check_lesson(Lesson& lesson, const ParameterTable& table);

}  // namespace pe
