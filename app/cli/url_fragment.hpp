#pragma once
// The state as a link: a URL fragment such as
//   #view=rope-cos&preset=llama-3.1-8b&theta=500000&length=8192
// Keys are the command-line options without their leading dashes (theta, dim, length,
// preset, view, scaling, factor, ui-scale, original-max-position-embeddings …; "_" may stand
// for "-", as in session keys), values are written as on the command line; the flags
// (light, grid, no-pixel-mean) stand alone or take 1/0. Each key goes through the same
// option definitions and checks as the command line (export/state_options), so names, ranges
// and messages are the command line's.
//
// Besides the state's options a fragment may carry what the page does with it:
//   lesson=NAME       open a built-in lesson in presenter mode (as `pe-viz lesson NAME`),
//                     slide=N (1-based) and notes as that command's --slide and --notes;
//   bench=N           sweep θ for N frames and report the median frame time.
//
// A link is input anyone can send, so it only sets what is shown: the options that read a
// file or a model (config, gguf, model, weights) and lesson files are refused and named, like
// any key that cannot apply — those come in by the reader's own action (a drop, File → Open…,
// the command line). No key writes a file, fetches or runs an export; what a link sets is
// kept as the page keeps any change (its last state, in the browser's local storage).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "state/app_state.hpp"

namespace app {

// Keys read from one link; the rest are refused (every option and page key fits many times).
inline constexpr std::size_t kMaxLinkKeys = 200;

struct FragmentProblem {
  std::string key;      // as written in the fragment
  std::string message;  // why it was not applied
};

struct PageRequest {
  std::optional<std::string> lesson;
  std::size_t slide = 0;  // 0-based
  bool notes = false;
  std::optional<int> bench_frames;
  // model=ORG/NAME[@REVISION]: a model on the Hugging Face Hub, opened by name (its
  // config.json fetched, as the Model field's Enter does; its weights only when the reader
  // asks). Never a path: a link opens no local file.
  std::optional<std::string> model;
};

// "a=1&b=x%20y" → {{"a","1"},{"b","x y"}} (percent-decoding; '+' is a space). A key
// without '=' has an empty value.
std::vector<std::pair<std::string, std::string>> split_fragment(const std::string& fragment);
// The inverse: keys and values percent-encoded where a fragment needs it.
std::string join_fragment(const std::vector<std::pair<std::string, std::string>>& pairs);

// Applies the fragment's keys to `state` in the command line's order (the model first,
// then single parameters). A key that is unknown, or whose value the command line would
// refuse, is left out and reported, naming it; every other key applies. `page` gets the
// lesson / slide / notes / bench keys, and model when it names a Hub model.
std::vector<FragmentProblem> apply_url_fragment(AppState& state, const std::string& fragment, PageRequest* page = nullptr);

// The fragment that opens `state` from the defaults: the view, the preset, and each option
// whose value differs from what the preset gives. `exact` (when given) says whether opening
// it reproduces the model exactly (false for a configuration read from a file with keys no
// option carries, e.g. LongRoPE's factor lists).
std::string url_fragment_for(const AppState& state, bool* exact = nullptr);

// Every option's value in `state`, in the command line's order, as written in a fragment
// (flags: "1" when set, "" when not).
std::vector<std::pair<std::string, std::string>> state_option_values(const AppState& state);

}  // namespace app
