#pragma once
// Every view as a PNG in one folder plus an index.html that shows them as slides
// (`pe-viz export --all DIR` and File → Export PNG → all views).
#include <filesystem>
#include <string>
#include <vector>

#include "export/export_request.hpp"
#include "state/app_state.hpp"

namespace app {

// One request per registered view, named by default_export_name, in tab order.
std::vector<ExportRequest> slide_deck_requests(const AppState& state, const std::filesystem::path& dir, int width, int height,
                                               Background background);

// The index.html for those requests (file names relative to the folder).
std::string slide_deck_html(const std::vector<ExportRequest>& requests);

class ExportSession;

// A deck export that runs one view per step, so a GUI can draw a frame with its progress
// between views. Errors stop the job and are reported by the step that met them.
class SlideDeckJob {
 public:
  struct Step {
    std::size_t done = 0, total = 0;
    std::string message;  // what was written, or the error
    bool error = false;     // also set on the last step when some view did not fit its image

    bool finished = false;  // last view and index.html written (or stopped by an error)
  };
  void start(std::vector<ExportRequest> requests);
  bool active() const { return !requests_.empty(); }
  Step step(ExportSession& session);  // call only while active()

 private:
  std::vector<ExportRequest> requests_;
  std::size_t done_ = 0;
  std::vector<std::string> cut_;  // export_cut_warning() of each view that did not fit
};

}  // namespace app
