#include "cli/export_command.hpp"

#include <cstdio>
#include <filesystem>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "export/state_options.hpp"
#include "pe/base/errors.hpp"
#include "pe/base/text.hpp"
#include "export/builtin_lessons.hpp"
#include "export/lesson_export.hpp"
#include "export/lesson_validation.hpp"
#include "export/view_data.hpp"
#include "export/slide_deck.hpp"
#include "export/video_export.hpp"
#include "export/view_export.hpp"
#include "platform/atomic_file.hpp"
#include "state/session_file.hpp"
#include "ui/app_session.hpp"
#include "views/view.hpp"

namespace app {
namespace {

bool parse_size(const std::string& text, int& w, int& h) {
  static const std::regex pattern(R"(^\s*(\d{1,9})\s*[xX×]\s*(\d{1,9})\s*$)");
  std::smatch m;
  if (!std::regex_match(text, m, pattern)) return false;
  w = std::stoi(m[1]);
  h = std::stoi(m[2]);
  return true;
}

// --animate / --duration / --fps, or a .mp4/.webm/.gif output: a video instead of a PNG.
struct VideoOptions {
  std::vector<std::string> animate;
  double duration = 4.0;
  int fps = 30;
  bool requested(const std::optional<std::string>& output, const CLI::App& cli) const {
    return !animate.empty() || cli.count("--duration") > 0 || cli.count("--fps") > 0 ||
           (output && is_video_path(*output));
  }
};

void add_video_options(CLI::App& cli, VideoOptions& v) {
  cli.add_option("--animate", v.animate,
                 "Animate a numeric parameter into a video: KEY=FROM:TO[:log|:linear], e.g. position=0:64 or "
                 "theta=100:1e6:log (repeat for several; theta and length are log by default)");
  cli.add_option("--duration", v.duration, "Video length in seconds (default 4)");
  cli.add_option("--fps", v.fps, "Video frames per second, 1 ... 120 (default 30; GIF at most 15)");
}

// Checked before a window opens: the message names the option.
VideoRequest video_request(const VideoOptions& v, const std::optional<std::string>& output, int width, int height,
                           Background background) {
  VideoRequest r;
  if (!output) throw pe::InvalidArgument("output", "(none)", "a video file name: -o FILE.mp4, FILE.webm or FILE.gif");
  r.path = *output;
  (void)video_codec_for(r.path);  // .mp4, .webm or .gif
  for (const auto& spec : v.animate) r.tracks.push_back(animate_option(spec));
  for (std::size_t i = 0; i < r.tracks.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (r.tracks[i].key == r.tracks[j].key) throw pe::InvalidArgument("animate", r.tracks[i].key, "each parameter animated once");
  if (!(v.duration > 0.0) || v.duration > 3600.0)
    throw pe::InvalidArgument("duration", pe::format_double(v.duration), "> 0 and <= 3600 seconds");
  if (v.fps < 1 || v.fps > 120) throw pe::InvalidArgument("fps", std::to_string(v.fps), "1 ... 120");
  r.seconds = v.duration;
  r.fps = v.fps;
  r.width = width;
  r.height = height;
  r.background = background;
  return r;
}

int write_video(AppSession& session, VideoRequest request) {
  request.view = session.state().view;
  const VideoResult r = export_video(session, request);
  const double frames = double(std::max(r.frames, 1LL));
  // Per rendered frame and per encoded frame (a GIF also renders its palette samples).
  std::printf("wrote %s (%s, %dx%d, %lld frames at %d fps = %.2f s, view %s; render %.1f ms/frame (%lld renders), "
              "encode %.1f ms/frame, total %.2f s)\n",
              r.path.c_str(), to_string(r.codec), request.width, request.height, r.frames, r.fps, double(r.frames) / r.fps,
              request.view.c_str(), r.render_ms / double(std::max(r.renders, 1LL)), r.renders, r.encode_ms / frames,
              r.total_ms / 1000.0);
  return 0;
}

// --lesson FILE.md|NAME DIR: every slide as PNG (+ MP4 when animated) and an index.html.
int write_lesson(AppSession& session, const pe::Lesson& lesson, const LessonExportOptions& options) {
  std::printf("exporting %s (%zu slides) into %s at %dx%d\n", lesson.file.c_str(), lesson.slides.size(),
              options.dir.c_str(), options.width, options.height);
  std::fflush(stdout);
  const LessonExportResult r = export_lesson(session, lesson, options, [](std::size_t k, std::size_t n, const std::string& line) {
    std::printf("[%zu/%zu] %s\n", k, n, line.c_str());
    std::fflush(stdout);
  });
  std::printf("wrote %s/index.html (%zu files, %.1f s)\n", options.dir.c_str(), r.files.size(), r.seconds);
  return 0;
}

void warn_if_cut(const std::string& view, int width, int height) {
  const std::string warning = export_cut_warning(view, width, height);
  if (!warning.empty())
    std::fprintf(stderr, "pe-viz export: warning: %s (give a taller --size or a smaller --ui-scale)\n", warning.c_str());
}

}  // namespace

int run_export_command(int argc, char** argv) {
  CLI::App cli{"pe-viz export: write a view (or every view) as PNG, redrawn at the requested size", "pe-viz export"};
  StateOverrides overrides;
  std::string size = "1920x1080", background = "theme";
  std::optional<std::string> output, all_dir, csv, session_path, lesson_source, lesson_dir;
  VideoOptions video;
  add_state_options(cli, overrides);
  add_video_options(cli, video);
  cli.add_option("--size", size, "Image size WxH, e.g. 800x600, 3840x2160 (up to the GL max texture size)");
  cli.add_option("-o,--output", output, "PNG path, FILE.png (default: a name saying what is in it, in the current directory), or FILE.mp4 / .webm / .gif for a video");
  cli.add_option("--all", all_dir, "Write every view into this directory, with an index.html deck");
  cli.add_option("--background", background, "theme | white | transparent");
  cli.add_option("--csv", csv, "Also write the numbers behind the view as CSV to this path");
  cli.add_option("--lesson", lesson_source,
                 "Export a lesson (a Markdown file, or a built-in lesson's name) into DIR: a PNG per slide, an MP4 per "
                 "animated slide (--fps), index.html");
  cli.add_option("DIR", lesson_dir, "With --lesson: the folder to write into (or -o DIR)");
  bool interactive = false;
  cli.add_flag("--interactive", interactive,
               "With --lesson: write the browser app itself with the lesson built in (DIR/index.html and pe-viz.js), "
               "opening at slide 1 in presenter mode, from disk or any web host (needs scripts/web.sh's build)");
  cli.add_option("--session", session_path, "Load this session file first (options given here override it)");
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return cli.exit(e);
  }
  int width = 0, height = 0;
  if (!parse_size(size, width, height)) {
    std::fprintf(stderr, "pe-viz export: --size '%s' is not WxH (e.g. 1920x1080)\n", size.c_str());
    return 2;
  }
  // The exact upper bound is the GL max texture size (checked once a context exists);
  // sizes no GL supports are refused here, before a window is opened.
  if (width < 16 || height < 16 || width > 65536 || height > 65536) {
    std::fprintf(stderr, "pe-viz export: --size '%s': each side must be 16 ... the GL max texture size (typically 16384) pixels\n",
                 size.c_str());
    return 2;
  }
  AppState state;
  Background bg;
  std::optional<VideoRequest> video_job;
  std::optional<pe::Lesson> lesson;
  try {
    bg = background_from_string(background);
    if (interactive && !lesson_source)
      throw std::runtime_error("--interactive goes with --lesson FILE.md|NAME DIR (the browser app with that lesson built in)");
    if (lesson_dir && !lesson_source)
      throw std::runtime_error("'" + *lesson_dir + "': a folder argument goes with --lesson FILE.md|NAME; to name the image or video, use -o " +
                               *lesson_dir);
    if (lesson_source) {
      if (all_dir || csv || !video.animate.empty() || cli.count("--duration") > 0)
        throw std::runtime_error("--lesson writes the lesson's own slides and animations: --all, --csv, --animate and "
                                 "--duration do not apply");
      if (lesson_dir && output) throw std::runtime_error("--lesson: give the folder once (DIR or -o DIR)");
      if (!lesson_dir && !output) throw std::runtime_error("--lesson: the folder to write into is missing (pe-viz export --lesson FILE.md DIR)");
      if (video.fps < 1 || video.fps > 120) throw pe::InvalidArgument("fps", std::to_string(video.fps), "1 ... 120");
      lesson = load_lesson_source(*lesson_source);
    } else if (video.requested(output, cli)) {
      if (all_dir || csv) throw std::runtime_error("a video is one view: --all and --csv write PNG and CSV files only");
      video_job = video_request(video, output, width, height, bg);
    } else if (output && !all_dir) {
      // A picture is always PNG bytes: a .csv or .jpg name would get them under a lying name.
      if (pe::lower_extension(*output) != ".png")
        throw pe::InvalidArgument("output", *output,
                                  "a PNG name, FILE.png (a video: FILE.mp4, .webm or .gif; the numbers: --csv FILE.csv)");
    }
    state = default_state();
    if (session_path) {
      std::vector<std::string> warnings;
      state = load_session(*session_path, state, warnings);
      for (const auto& w : warnings) std::fprintf(stderr, "pe-viz export: warning: %s\n", w.c_str());
    }
    apply_overrides(state, overrides);
    if (lesson) (void)lesson_slide_states(*lesson, state);  // every slide checked before a window opens
    if (lesson && interactive) {
      // The page draws the slides itself: no GL here, only files copied and the lesson put in.
      const std::filesystem::path dir = lesson_dir ? *lesson_dir : *output;
      const std::filesystem::path web = find_web_page_files();
      std::printf("the page from %s\n", web.c_str());
      const std::string name = find_builtin_lesson(*lesson_source) ? *lesson_source : std::filesystem::path(*lesson_source).stem().string();
      for (const auto& f : export_interactive_lesson(name, lesson_markdown(*lesson_source), dir, web))
        std::printf("wrote %s\n", f.c_str());
      std::printf("open %s in a browser (from disk or any web server): %zu slides, presenter mode (-> next, Esc leaves)\n",
                  (dir / "index.html").c_str(), lesson->slides.size());
      return 0;
    }
    if (video_job) {
      // The animated values must suit this state (position < length ...) before a window opens.
      AppState probe = state;
      apply_tracks(probe, video_job->tracks, 0.0);
      apply_tracks(probe, video_job->tracks, 1.0);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pe-viz export: %s\n", e.what());
    return 2;
  }
  try {
    AppSession session(state, {.width = 1600, .height = 1000, .visible = false});
    session.frame(0.0);  // settles derived results and fonts
    if (video_job) return write_video(session, *video_job);
    if (lesson)
      return write_lesson(session, *lesson, {lesson_dir ? *lesson_dir : *output, width, height, bg, video.fps});
    if (all_dir) {
      std::filesystem::create_directories(*all_dir);
      const auto requests = slide_deck_requests(session.state(), *all_dir, width, height, bg);
      for (std::size_t k = 0; k < requests.size(); ++k) {
        const double ms = export_view_png(session, requests[k]);
        std::printf("[%zu/%zu] %s (%dx%d, %.0f ms)\n", k + 1, requests.size(), requests[k].path.filename().c_str(), width, height, ms);
        warn_if_cut(requests[k].view.empty() ? session.state().view : requests[k].view, width, height);
        std::fflush(stdout);
      }
      write_file_atomic(std::filesystem::path(*all_dir) / "index.html", slide_deck_html(requests));
      std::printf("wrote %s/index.html\n", all_dir->c_str());
      return 0;
    }
    const std::string view = session.state().view;
    const std::filesystem::path path = output ? std::filesystem::path(*output)
                                              : std::filesystem::path(default_export_name(session.state(), view));
    // The numbers first: a view without data, or an unwritable CSV path, fails before any PNG is written.
    // The CSV's temporary is written now and renamed after the PNG, so neither file appears alone.
    std::optional<AtomicFile> csv_file;
    if (csv) {
      const std::string data = view_csv(view, session.state(), session.derived());
      csv_file.emplace(*csv);
      csv_file->write(data.data(), data.size());
    }
    const double ms = export_view_png(session, {view, width, height, bg, path});
    std::printf("wrote %s (%dx%d, view %s, %.0f ms)\n", path.c_str(), width, height, view.c_str(), ms);
    warn_if_cut(view, width, height);
    if (csv_file) {
      csv_file->commit();
      std::printf("wrote %s\n", csv->c_str());
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pe-viz export: %s\n", e.what());
    return 1;
  }
}

}  // namespace app
