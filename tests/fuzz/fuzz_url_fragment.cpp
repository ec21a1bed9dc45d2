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

// The options of `after` that differ from `before`, each of which the link must have named.
void check_only_named_options_changed(const app::AppState& before, const app::AppState& after,
                                      const std::set<std::string>& named, const std::string& fragment) {
  // A preset (and a scaling or dimension change, which the model's numbers follow) resets
  // the model's own options together: those are the preset key's doing.
  const bool model_named = named.count("preset") > 0;
  // Setting one of the model's numbers makes the model a custom one: the preset's name is
  // cleared (apply_overrides, as the panel does when θ is edited).
  bool model_numbers_named = false;
  for (const char* key : {"theta", "dim", "partial-rotary-factor", "convention", "scaling", "factor",
                          "original-max-position-embeddings"})
    model_numbers_named = model_numbers_named || named.count(key) > 0;
  const Pairs a = app::state_option_values(before), b = app::state_option_values(after);
  PE_FUZZ_CHECK(a.size() == b.size(), "state_option_values size");
  for (std::size_t k = 0; k < a.size(); ++k) {
    const std::string& name = a[k].first;
    if (a[k].second == b[k].second || named.count(name)) continue;
    if (model_named) continue;
    if (name == "preset" && b[k].second.empty() && model_numbers_named) continue;
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
