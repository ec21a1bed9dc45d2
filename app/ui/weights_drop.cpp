#include "ui/weights_drop.hpp"

#include <filesystem>

#include "pe/models/config.hpp"
#include "pe/models/gguf.hpp"
#include "pe/weights/byte_source.hpp"
#include "pe/weights/position_tensors.hpp"
#include "platform/host.hpp"
#include "state/weights_usage.hpp"
#include "views/view.hpp"

namespace app {

namespace {

namespace fs = std::filesystem;

// The dropped model's configuration, from its config.json (beside the weights), or only its
// positional encoding from a GGUF header; nullopt when that cannot be read (the reading will
// say why).
std::optional<pe::LoadedConfig> config_of(const std::string& path, bool gguf) {
  try {
    if (gguf) {
      pe::LoadedConfig loaded;
      loaded.encoding = pe::gguf_position_encoding(pe::parse_gguf(pe::map_file(path)->bytes(), path));
      return loaded;
    }
    std::error_code ec;
    const fs::path folder = fs::is_directory(path, ec) ? fs::path(path) : fs::path(path).parent_path();
    const fs::path config = (folder.empty() ? fs::path(".") : folder) / "config.json";
    if (!fs::exists(config, ec)) return std::nullopt;
    return pe::parse_hf_config_diagnosed(pe::read_config_text(config), config.string());
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// Where the model's trained positions are drawn: the learned table, T5's bias, or (for a
// model that rotates, and whatever else) the frequency usage, which says what a model that
// does not rotate has instead.
std::string view_for(const pe::PositionEncodingInfo& e) {
  using F = pe::PositionEncodingFamily;
  const auto is = [&](F f) { return e.family == f || e.encoder_family == f; };
  if (is(F::LearnedAbsolute) || is(F::Sinusoidal)) return "learned";
  if (is(F::T5RelativeBias) && find_view("t5-bias")) return "t5-bias";
  return "frequency-usage";
}

}  // namespace

bool open_dropped_weights(AppState& state, const std::string& path, StatusLine& status, double now) {
  const bool gguf = is_gguf_path(path);
  if (!gguf && !is_weights_path(path)) return false;
  // A file a page holds in place (too large to copy into it): only the weights job reads it,
  // by range; its GGUF header is not read as a configuration here.
  const bool held = host::page_file(path) != nullptr;
  const auto loaded = held && gguf ? std::nullopt : config_of(path, gguf);
  const bool rotary = !loaded || loaded->encoding.rotates();
  // A model that does not rotate: its family, table shape, heads and bucket parameters become
  // the views' (the trained tensors are drawn only in the shape the parameters give).
  if (!rotary) adopt_model_encoding(state, *loaded);
  // Read afresh: the same path dropped again may hold other weights now. The view reads it on
  // a worker thread and shows the progress, or the reason it cannot.
  forget_weights(path);
  state.weights = path;
  state.weights_layer = 0;
  state.view = rotary ? "frequency-usage" : view_for(loaded->encoding);
  status.text = rotary ? "Reading the q/k weights of " + path + " (frequency-usage view)"
                       : "Reading the position tensors of " + path + " (" + state.view + " view)";
  status.error = false;
  status.shown_at = now;
  status.progress = -1.0f;
  // A .gguf of a rotary model is its configuration too (loaded next by the caller); one
  // without RoPE has no RoPE configuration to load.
  if (held) status.text += " — read in place, by range";
  return !gguf || !rotary || held;
}

}  // namespace app
