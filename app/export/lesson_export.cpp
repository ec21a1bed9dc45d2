#include "export/lesson_export.hpp"

#include <chrono>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "export/builtin_lessons.hpp"
#include "export/lesson_validation.hpp"
#include "export/video_export.hpp"
#include "export/view_export.hpp"
#include "pe/base/errors.hpp"
#include "platform/atomic_file.hpp"
#include "state/session_file.hpp"
#include "export/export_session.hpp"

namespace app {
namespace {

namespace fs = std::filesystem;

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else if (c == '\'') out += "&#39;";
    else out += c;
  }
  return out;
}

std::string builtin_names() {
  std::string names;
  for (const auto& l : builtin_lessons()) names += (names.empty() ? "" : ", ") + l.name;
  return names;
}

std::string lesson_title(const pe::Lesson& lesson) {
  for (const auto& slide : lesson.slides)
    if (std::string t = slide.title(); !t.empty()) return t;
  return fs::path(lesson.file).stem().string();
}

// Slides, one shown at a time by the script; notes toggled with S. No external files.
constexpr const char* kStyle =
    "body{margin:0;font-family:'DejaVu Sans',sans-serif;background:#f4f4f2;color:#1b1b1b}"
    "section{min-height:100vh;box-sizing:border-box;padding:2vh 3vw;display:flex;gap:2vw;align-items:center;"
    "border-bottom:1px solid #ccc}"
    "body.js section{display:none;border:0}body.js section.current{display:flex}"
    ".media{flex:0 0 64%}.media img,.media video{width:100%;height:auto;display:block}"
    ".text{flex:1;font-size:1.15rem;line-height:1.45}.text h1,.text h2{margin-top:0}"
    "code,pre{background:#e6e6e2;border-radius:3px;padding:0 .2em}pre{padding:.5em;overflow:auto}"
    "aside.notes{display:none;border-top:1px solid #999;margin-top:1em;color:#444;font-size:.95rem}"
    "body.notes aside.notes{display:block}"
    "footer{position:fixed;right:1em;bottom:.5em;color:#777;font-size:.9rem}"
    "@media (max-aspect-ratio:4/3){section{flex-direction:column}.media{flex:none;width:100%}}";

constexpr const char* kScript =
    "(function(){var s=document.querySelectorAll('section'),i=0,f=document.getElementById('counter');"
    "document.body.classList.add('js');"
    "function show(k){i=Math.max(0,Math.min(s.length-1,k));"
    "for(var j=0;j<s.length;++j){s[j].classList.toggle('current',j===i);"
    "var v=s[j].querySelector('video');if(v){if(j===i){v.currentTime=0;var p=v.play();if(p&&p.catch)p.catch(function(){});}else v.pause();}}"
    "f.textContent=(i+1)+' / '+s.length;if(location.hash!=='#'+(i+1))history.replaceState(null,'','#'+(i+1));}"
    "document.addEventListener('keydown',function(e){"
    "if(e.key==='ArrowRight'||e.key==='PageDown'||e.key===' '){show(i+1);e.preventDefault();}"
    "else if(e.key==='ArrowLeft'||e.key==='PageUp'){show(i-1);e.preventDefault();}"
    "else if(e.key==='Home')show(0);else if(e.key==='End')show(s.length-1);"
    "else if(e.key==='s'||e.key==='S')document.body.classList.toggle('notes');});"
    "show((parseInt(location.hash.slice(1),10)||1)-1);})();";

}  // namespace

pe::Lesson load_lesson_source(const std::string& file_or_name) {
  const fs::path path(file_or_name);
  std::error_code ec;
  const bool looks_like_file = fs::exists(path, ec) || path.extension() == ".md" || file_or_name.find('/') != std::string::npos;
  if (looks_like_file) return load_checked_lesson(path);
  const BuiltinLesson* builtin = find_builtin_lesson(file_or_name);
  if (!builtin)
    throw pe::LessonError(file_or_name, 0, "lesson",
                          "no such file and no built-in lesson of that name; built-in lessons: " + builtin_names());
  pe::Lesson lesson = pe::parse_lesson(builtin->markdown, builtin->name + ".md");
  pe::check_lesson(lesson, lesson_parameters());
  return lesson;
}

namespace {

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string base64(const std::string& bytes) {
  static const char* const kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = unsigned(static_cast<unsigned char>(bytes[i])) << 16 | unsigned(static_cast<unsigned char>(bytes[i + 1])) << 8 |
                       unsigned(static_cast<unsigned char>(bytes[i + 2]));
    for (int k = 18; k >= 0; k -= 6) out += kAlphabet[(v >> k) & 63];
  }
  if (i < bytes.size()) {
    unsigned v = unsigned(static_cast<unsigned char>(bytes[i])) << 16;
    if (i + 1 < bytes.size()) v |= unsigned(static_cast<unsigned char>(bytes[i + 1])) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

bool is_page_folder(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "index.html", ec) && fs::is_regular_file(dir / "pe-viz.js", ec);
}

}  // namespace

fs::path find_web_page_files() {
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("PE_VIZ_WEB_DIR"); env && *env) candidates.emplace_back(env);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    candidates.push_back(exe.parent_path() / "web");
    candidates.push_back(exe.parent_path().parent_path() / "share" / "pe-viz" / "web");
  }
#ifdef PE_VIZ_SOURCE_DIR
  candidates.push_back(fs::path(PE_VIZ_SOURCE_DIR) / "build-web" / "site-file");
#endif
  std::string looked;
  for (const fs::path& c : candidates) {
    if (is_page_folder(c)) return c;
    looked += (looked.empty() ? "" : ", ") + c.string();
  }
  throw std::runtime_error("--interactive needs pe-viz's browser build (index.html and pe-viz.js), which is not there (looked in: " +
                           looked + "). Build it with scripts/web.sh (it writes build-web/site-file/), or point PE_VIZ_WEB_DIR "
                           "at a folder that holds them.");
}

std::string lesson_markdown(const std::string& file_or_name) {
  const fs::path path(file_or_name);
  std::error_code ec;
  if (fs::exists(path, ec) || path.extension() == ".md" || file_or_name.find('/') != std::string::npos) return read_file(path);
  if (const BuiltinLesson* builtin = find_builtin_lesson(file_or_name)) return std::string(builtin->markdown);
  throw pe::LessonError(file_or_name, 0, "lesson", "no such file and no built-in lesson of that name; built-in lessons: " + builtin_names());
}

std::vector<fs::path> export_interactive_lesson(const std::string& name, const std::string& markdown, const fs::path& dir,
                                                const fs::path& web_files) {
  std::string page = read_file(web_files / "index.html");
  // The page carries an empty lesson element for this (app/platform/web/index.html).
  const std::string slot = R"(<script type="text/markdown" id="pe-viz-lesson" data-name=""></script>)";
  const std::size_t at = page.find(slot);
  if (at == std::string::npos)
    throw std::runtime_error((web_files / "index.html").string() + " is not pe-viz's browser page (no lesson slot): rebuild it with scripts/web.sh");
  std::string safe;  // the name as the page's file system path uses it
  for (char c : name) safe += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '-';
  if (safe.empty()) safe = "lesson";
  // Base64: the Markdown may hold anything, even "</script>".
  page.replace(at, slot.size(),
               R"(<script type="text/markdown" id="pe-viz-lesson" data-name=")" + safe + R"(" data-encoding="base64">)" +
                   base64(markdown) + "</script>");
  std::error_code ec;
  fs::create_directories(dir, ec);  // an unwritable folder: write_file_atomic names it
  const std::string program = read_file(web_files / "pe-viz.js");
  write_file_atomic(dir / "pe-viz.js", program);
  write_file_atomic(dir / "index.html", page);
  return {dir / "pe-viz.js", dir / "index.html"};
}

std::vector<LessonSlideFiles> lesson_slide_files(const pe::Lesson& lesson) {
  // Zero-padded to the slide count's width (at least two digits) so the files sort in order.
  const std::size_t digits = std::max<std::size_t>(2, std::to_string(lesson.slides.size()).size());
  std::vector<LessonSlideFiles> files;
  for (std::size_t k = 0; k < lesson.slides.size(); ++k) {
    std::string number = std::to_string(k + 1);
    number.insert(0, digits - std::min(digits, number.size()), '0');
    const std::string stem = "slide-" + number + "-" + lesson.slides[k].view;
    files.push_back({stem + ".png", lesson.slides[k].animation ? stem + ".mp4" : std::string()});
  }
  return files;
}

std::vector<AppState> lesson_slide_states(const pe::Lesson& lesson, const AppState& base) {
  std::vector<AppState> states;
  AppState state = base;
  for (std::size_t k = 0; k < lesson.slides.size(); ++k) {
    apply_slide_settings(state, lesson, k);  // settings carry over to later slides
    AppState shown = state;
    const pe::LessonSlide& slide = lesson.slides[k];
    if (slide.animation) {
      for (const double u : {1.0, 0.0}) {  // the end checked, the start shown
        try {
          apply_tracks(shown, slide.animation->tracks, u);
        } catch (const pe::InvalidArgument& e) {
          throw pe::LessonError(lesson.file, slide.animation_line, e.parameter(),
                                "'" + e.value() + "' at the " + (u == 0.0 ? "start" : "end") + ": " + e.allowed());
        }
      }
    }
    states.push_back(std::move(shown));
  }
  return states;
}

std::string lesson_html(const pe::Lesson& lesson, const std::vector<LessonSlideFiles>& files) {
  std::string html = "<!doctype html>\n<html lang=\"en\">\n<meta charset=\"utf-8\">\n"
                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
                     escape(lesson_title(lesson)) + "</title>\n<style>" + kStyle + "</style>\n<body>\n";
  for (std::size_t k = 0; k < lesson.slides.size() && k < files.size(); ++k) {
    const pe::LessonSlide& slide = lesson.slides[k];
    const LessonSlideFiles& f = files[k];
    const std::string alt = slide.title().empty() ? slide.view : slide.title();
    html += "<section id=\"slide-" + std::to_string(k + 1) + "\">\n<div class=\"media\">";
    if (!f.video.empty())
      html += "<video src=\"" + escape(f.video) + "\" poster=\"" + escape(f.png) +
              "\" controls muted loop playsinline preload=\"metadata\"></video>";
    else
      html += "<img src=\"" + escape(f.png) + "\" alt=\"" + escape(alt) + "\">";
    html += "</div>\n<div class=\"text\">\n" + pe::blocks_to_html(slide.body);
    if (!slide.notes.empty()) html += "<aside class=\"notes\">\n" + pe::blocks_to_html(slide.notes) + "</aside>\n";
    html += "</div>\n</section>\n";
  }
  html += "<footer><span id=\"counter\"></span> · ← → move, S notes</footer>\n<script>";
  html += kScript;
  html += "</script>\n</body>\n</html>\n";
  return html;
}

LessonExportResult export_lesson(ExportSession& session, const pe::Lesson& lesson, const LessonExportOptions& options,
                                 const std::function<void(std::size_t, std::size_t, const std::string&)>& progress) {
  const auto start = std::chrono::steady_clock::now();
  const AppState saved = session.state();
  // Everything checked before the first write.
  const std::vector<AppState> states = lesson_slide_states(lesson, saved);
  const std::vector<LessonSlideFiles> files = lesson_slide_files(lesson);
  std::error_code ec;
  fs::create_directories(options.dir, ec);
  if (ec || !fs::is_directory(options.dir))
    throw std::runtime_error("cannot write the lesson into " + options.dir.string() + ": " +
                             (ec ? ec.message() : std::string("not a directory")));
  { AtomicFile probe(options.dir / "index.html"); }  // throws when the folder is unwritable; not committed

  LessonExportResult result;
  try {
    for (std::size_t k = 0; k < states.size(); ++k) {
      const pe::LessonSlide& slide = lesson.slides[k];
      session.state() = states[k];
      const fs::path png = options.dir / files[k].png;
      export_view_png(session, {slide.view, options.width, options.height, options.background, png});
      result.files.push_back(png);
      std::string line = files[k].png;
      if (slide.animation) {
        VideoRequest request;
        request.view = slide.view;
        request.path = options.dir / files[k].video;
        request.width = options.width;
        request.height = options.height;
        request.fps = options.fps;
        request.seconds = slide.animation->seconds;
        request.tracks = slide.animation->tracks;
        request.background = options.background;
        const VideoResult video = export_video(session, request);
        result.files.push_back(request.path);
        result.video_frames += video.frames;
        line += " + " + files[k].video + " (" + std::to_string(video.frames) + " frames)";
      }
      if (progress) progress(k + 1, states.size(), line + ", view " + slide.view);
    }
    const fs::path index = options.dir / "index.html";
    write_file_atomic(index, lesson_html(lesson, files));
    result.files.push_back(index);
  } catch (...) {
    session.state() = saved;
    throw;
  }
  session.state() = saved;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace app
