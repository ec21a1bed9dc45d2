#include "ui/weights_drop.hpp"

#include "state/weights_usage.hpp"

namespace app {

bool open_dropped_weights(AppState& state, const std::string& path, StatusLine& status, double now) {
  const bool gguf = is_gguf_path(path);
  if (!gguf && !is_weights_path(path)) return false;
  // Read afresh: the same path dropped again may hold other weights now. The view reads it on
  // a worker thread and shows the progress, or the reason it cannot.
  forget_weights(path);
  state.weights = path;
  state.weights_layer = 0;
  state.view = "frequency-usage";
  status.text = "Reading the q/k weights of " + path + " (frequency-usage view)";
  status.error = false;
  status.shown_at = now;
  status.progress = -1.0f;
  return !gguf;
}

}  // namespace app
