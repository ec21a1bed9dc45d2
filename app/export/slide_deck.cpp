#include "export/slide_deck.hpp"

#include "export/view_export.hpp"
#include "state/session_file.hpp"
#include "views/view.hpp"

namespace app {
namespace {

std::string html_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

}  // namespace

std::vector<ExportRequest> slide_deck_requests(const AppState& state, const std::filesystem::path& dir, int width, int height,
                                               Background background) {
  std::vector<ExportRequest> requests;
  for (const ViewInfo& v : all_views())
    requests.push_back({v.name, width, height, background, dir / default_export_name(state, v.name)});
  return requests;
}

std::string slide_deck_html(const std::vector<ExportRequest>& requests) {
  std::string html =
      "<!doctype html>\n<meta charset=\"utf-8\">\n<title>pe-viz slides</title>\n"
      "<style>body{background:#111;color:#eee;font-family:sans-serif;margin:0}"
      "section{min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center}"
      "img{max-width:96vw;max-height:88vh}</style>\n";
  for (const ExportRequest& r : requests) {
    const ViewInfo* v = find_view(r.view);
    const std::string title = v ? v->title : r.view, summary = v ? v->summary : "";
    html += "<section><h2>" + html_escape(title) + "</h2><img src=\"" + html_escape(r.path.filename().string()) + "\" alt=\"" +
            html_escape(summary) + "\"><p>" + html_escape(summary) + "</p></section>\n";
  }
  return html;
}

void SlideDeckJob::start(std::vector<ExportRequest> requests) {
  requests_ = std::move(requests);
  done_ = 0;
  cut_.clear();
}

SlideDeckJob::Step SlideDeckJob::step(ExportSession& session) {
  Step s;
  s.total = requests_.size();
  try {
    if (done_ == 0) std::filesystem::create_directories(requests_.front().path.parent_path());
    const ExportRequest& r = requests_[done_];
    export_view_png(session, r);
    if (std::string cut = export_cut_warning(r.view.empty() ? session.state().view : r.view, r.width, r.height); !cut.empty())
      cut_.push_back(std::move(cut));
    ++done_;
    s.done = done_;
    s.message = "Exported " + std::to_string(done_) + "/" + std::to_string(requests_.size()) + ": " +
                requests_[done_ - 1].path.filename().string();
    if (done_ == requests_.size()) {
      const auto index = requests_.front().path.parent_path() / "index.html";
      write_file_atomic(index, slide_deck_html(requests_));
      s.message = "Exported " + std::to_string(requests_.size()) + " views and " + index.string();
      if (!cut_.empty())
        s.message += "; " + std::to_string(cut_.size()) + " cut off at the bottom, first: " + cut_.front();
      s.error = !cut_.empty();
      s.finished = true;
      requests_.clear();
    }
  } catch (const std::exception& e) {
    s.done = done_;
    s.message = std::string("Export failed: ") + e.what();
    s.error = true;
    s.finished = true;
    requests_.clear();
  }
  return s;
}

}  // namespace app
