// bytes → a page's link (URL fragment, app/cli/url_fragment) → app::apply_url_fragment on the
// default state → written back with url_fragment_for. A link is input anyone can send, so:
//   - nothing throws out of it, and every key left out is named with a reason;
//   - the state it gives is valid, draws (derived values, the small core computations), and
//     its own link opens it again exactly, with nothing left out;
//   - it does no more than its keys say: no option changes that the link did not name (a
//     preset brings its model's numbers), no file or model is opened (config, gguf, model,
//     weights and lesson files are refused), the page keys stay in their ranges;
//   - splitting and joining are inverse (what the page writes is what it reads).
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cli/url_fragment.hpp"
#include "export/builtin_lessons.hpp"
#include "fuzz_common.hpp"
#include "state/app_state.hpp"
#include "state/derived.hpp"

namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

// The option name a fragment key stands for ("--ui_scale" and "ui-scale" are "ui-scale"),
// as apply_url_fragment reads it.
std::string option_name(std::string key) {
  while (!key.empty() && key.front() == '-') key.erase(0, 1);
  for (char& c : key)
    if (c == '_') c = '-';
  return key;
}

// The options of `after` that differ from `before`, each of which the link must have named,
// or named one it follows by design (apply_overrides, apply_preset):
//   a preset brings its model's numbers, its training window as the length, and moves the
//   position, pair and sections into the new model;
//   setting a model number makes the model a custom one: the preset's name is cleared;
//   a shorter length moves the position inside it; a new prompt or merge size the prompt
//   token; fewer grid rows or columns the selected patch.
void check_only_named_options_changed(const app::AppState& before, const app::AppState& after,
                                      const std::set<std::string>& named, const std::string& fragment) {
  static const std::map<std::string, std::vector<std::string>> follows = {
      {"theta", {"preset"}},
      {"dim", {"preset"}},
      {"partial-rotary-factor", {"preset"}},
      {"convention", {"preset"}},
      {"scaling", {"preset"}},
      {"factor", {"preset"}},
      {"original-max-position-embeddings", {"preset"}},
      {"length", {"preset"}},
      {"position", {"preset", "length"}},
      {"pair", {"preset"}},
      {"sections", {"preset"}},
      {"preset", {"theta", "dim", "partial-rotary-factor", "convention", "scaling", "factor",
                  "original-max-position-embeddings"}},
      {"prompt-token", {"prompt", "merge-size"}},
      {"patch-row", {"grid-rows"}},
      {"patch-col", {"grid-cols"}},
  };
  const Pairs a = app::state_option_values(before), b = app::state_option_values(after);
  PE_FUZZ_CHECK(a.size() == b.size(), "state_option_values size");
  for (std::size_t k = 0; k < a.size(); ++k) {
    const std::string& name = a[k].first;
    if (a[k].second == b[k].second || named.count(name)) continue;
    bool explained = false;
    if (const auto it = follows.find(name); it != follows.end())
      for (const std::string& cause : it->second) explained = explained || named.count(cause) > 0;
    if (explained) continue;
    pe_fuzz::fail("link changed an option it did not name", name + ": " + a[k].second + " -> " + b[k].second +
                                                              " from #" + fragment);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const app::AppState base = app::default_state();
  const std::string fragment(reinterpret_cast<const char*>(data), size);

  // What the page writes is what it reads.
  const Pairs pairs = app::split_fragment(fragment);
  Pairs kept = pairs;
  std::erase_if(kept, [](const auto& kv) { return kv.first.empty() && kv.second.empty(); });
  PE_FUZZ_CHECK(app::split_fragment(app::join_fragment(kept)) == kept, "split(join(pairs)) != pairs for #" + fragment);

  app::AppState s = base;
  app::PageRequest page;
  std::vector<app::FragmentProblem> problems;
  try {
    problems = app::apply_url_fragment(s, fragment, &page);
  } catch (const std::exception& e) {
    pe_fuzz::fail("apply_url_fragment threw (a bad key must be left out and named)", e.what());
  }
  for (const app::FragmentProblem& p : problems) PE_FUZZ_CHECK(!p.message.empty(), "empty message for key " + p.key);

  // No file, model or lesson file opened; page keys in range.
  PE_FUZZ_CHECK(s.weights == base.weights, "a link set weights: " + s.weights);
  PE_FUZZ_CHECK(s.model_source == base.model_source || s.model_source.rfind("preset:", 0) == 0,
                "a link opened a model source: " + s.model_source);
  if (page.lesson) PE_FUZZ_CHECK(app::find_builtin_lesson(*page.lesson) != nullptr, "a link opened a lesson file: " + *page.lesson);
  if (page.bench_frames) PE_FUZZ_CHECK(*page.bench_frames >= 1 && *page.bench_frames <= 100000, std::to_string(*page.bench_frames));

  std::set<std::string> named;
  for (const auto& [key, value] : pairs) named.insert(option_name(key));
  check_only_named_options_changed(base, s, named, fragment);

  // The state is one the app can show.
  const std::string error = app::validate_state(s);
  PE_FUZZ_CHECK(error.empty(), error);
  app::Derived d;
  app::update_derived(s, d);
  PE_FUZZ_CHECK(d.error.empty(), d.error);
  pe_fuzz::check_frequencies(d.rope, s.rope);
  pe_fuzz::exercise_rope(s.rope, s.length, s.seed);

  // Its own link opens it again: exactly, with nothing left out. url_fragment_for checks that
  // itself when asked (it opens the link from the defaults: no key left out, the same options
  // but the preset's name, the same model numbers).
  bool exact = false;
  const std::string written = app::url_fragment_for(s, &exact);
  PE_FUZZ_CHECK(exact, "the link written for the state does not open it again: #" + written + " (from #" + fragment + ")");
  return 0;
}
