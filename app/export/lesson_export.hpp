#pragma once
// A lesson as files a student opens without pe-viz (`pe-viz export --lesson FILE.md|NAME DIR/`):
// one PNG per slide (the slide's view at its parameters), one MP4 per animated slide, and an
// index.html that shows the slides with their text (arrow keys move through it).
//
// Everything is checked before the first file is written (every slide's settings, every
// animation's start and end values, the folder): a bad lesson leaves the folder as it was.
// Each file is written atomically (temporary + rename), index.html last.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "export/export_request.hpp"
#include "pe/lessons/lesson_file.hpp"
#include "state/app_state.hpp"

namespace app {

class ExportSession;

// `file_or_name` names a lesson file when such a file exists (or it ends in ".md" or holds a
// '/'), else a built-in lesson (export/builtin_lessons.hpp). Loaded and checked against
// lesson_parameters(); throws pe::LessonError (file, line, key) — an unknown name lists the
// built-in lessons.
pe::Lesson load_lesson_source(const std::string& file_or_name);

// The files of one slide, relative to the export folder.
struct LessonSlideFiles {
  std::string png;    // "slide-01-permutation.png"
  std::string video;  // "slide-04-clock-hands.mp4", "" when the slide has no animation
};
std::vector<LessonSlideFiles> lesson_slide_files(const pe::Lesson& lesson);

// The state of every slide (slide_state: settings carried over, the animation at its start),
// with each animation's end value checked too. Throws pe::LessonError naming file, line, key.
std::vector<AppState> lesson_slide_states(const pe::Lesson& lesson, const AppState& base);

// The self-contained index.html: every slide's picture or video and its text (escaped,
// pe::blocks_to_html), speaker notes hidden until S is pressed; ←/→, Page Up/Down, Home/End
// move between slides. Without JavaScript all slides show one below the other.
std::string lesson_html(const pe::Lesson& lesson, const std::vector<LessonSlideFiles>& files);

struct LessonExportOptions {
  std::filesystem::path dir;
  int width = 1920, height = 1080;
  Background background = Background::Theme;
  int fps = 30;
};

struct LessonExportResult {
  std::vector<std::filesystem::path> files;  // in the order written, index.html last
  long long video_frames = 0;
  double seconds = 0;
};

// Renders and writes the whole lesson with `session` (its state is restored afterwards).
// `progress(slide, slides, line)` after each slide, line saying what was written. Throws
// pe::LessonError for a bad lesson and std::runtime_error for an unwritable folder, both
// before anything is written; a GL or encoder error later leaves the files written so far.
LessonExportResult export_lesson(ExportSession& session, const pe::Lesson& lesson, const LessonExportOptions& options,
                                 const std::function<void(std::size_t, std::size_t, const std::string&)>& progress = {});

// ---- `pe-viz export --lesson NAME|FILE DIR --interactive`: the browser app itself with the
// lesson built in (DIR/index.html + DIR/pe-viz.js, the WebAssembly inside the script), opening
// at slide 1 in presenter mode; from disk (file://, no server) or any static host.

// The browser build's page for disk: a folder with index.html and pe-viz.js, as scripts/web.sh
// writes it (build-web/site-file/). Looked for in $PE_VIZ_WEB_DIR, beside the binary (web/,
// ../share/pe-viz/web/) and in the source tree's build-web/site-file/. Throws
// std::runtime_error naming every place looked at and how to build it.
std::filesystem::path find_web_page_files();

// Writes the two files; `markdown` is the lesson's source (checked by the caller), `name` a
// short name for it. Returns the files written (index.html last). Throws std::runtime_error
// for an unwritable folder or web files that are not the page pe-viz builds.
std::vector<std::filesystem::path> export_interactive_lesson(const std::string& name, const std::string& markdown,
                                                             const std::filesystem::path& dir,
                                                             const std::filesystem::path& web_files);
// The Markdown of a lesson file or a built-in lesson (as load_lesson_source finds it).
std::string lesson_markdown(const std::string& file_or_name);

}  // namespace app
