// A page's link (cli/url_fragment): the command line's options as fragment keys, parsed by the
// same definitions and checks; written back so that opening it shows the same thing.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>

#include <filesystem>

#include "export/state_options.hpp"
#include "cli/url_fragment.hpp"
#include "pe/models/config.hpp"
#include "platform/host.hpp"
#include "relative_test_state.hpp"
#include "state/app_state.hpp"

namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

std::string value_of(const Pairs& pairs, const std::string& key) {
  for (const auto& [k, v] : pairs)
    if (k == key) return v;
  return "(absent)";
}

TEST(UrlFragment, SplitsAndJoinsWithPercentEncoding) {
  const Pairs pairs = {{"tokens", "the dog & the man = 2"}, {"prompt", "text:4,image:1x8x12"}, {"light", ""}, {"x", "100%+ü"}};
  const std::string text = app::join_fragment(pairs);
  EXPECT_EQ(text.find(' '), std::string::npos) << text;
  EXPECT_EQ(app::split_fragment(text), pairs) << text;
  EXPECT_EQ(app::split_fragment("a=1&&b=x%20y+z&c"), (Pairs{{"a", "1"}, {"b", "x y z"}, {"c", ""}}));
}

TEST(UrlFragment, KeysAreTheCommandLinesOptions) {
  app::StateOverrides o;
  CLI::App cli;
  app::add_state_options(cli, o);
  for (const auto& [name, value] : app::state_option_values(app::default_state()))
    EXPECT_NE(cli.get_option_no_throw("--" + name), nullptr) << name << " is not a command-line option";
}

TEST(UrlFragment, AppliesKeysAsTheCommandLineDoes) {
  app::AppState s = app::default_state();
  const auto problems = app::apply_url_fragment(s, "view=rope-cos&preset=llama-3.1-8b&theta=1000000&length=8192&ui_scale=2&light");
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(s.view, "rope-cos");
  EXPECT_EQ(s.rope.theta, 1e6);
  EXPECT_EQ(s.rope.head_dim, 128);
  EXPECT_EQ(s.length, 8192);
  EXPECT_EQ(s.ui_scale, 2.0f);
  EXPECT_FALSE(s.dark_theme);
  const std::string written = app::url_fragment_for(s);
  const Pairs keys = app::split_fragment(written);
  EXPECT_EQ(value_of(keys, "view"), "rope-cos") << written;
  EXPECT_EQ(value_of(keys, "preset"), "llama-3.1-8b") << written;
  EXPECT_EQ(value_of(keys, "theta"), "1000000") << written;
  EXPECT_EQ(value_of(keys, "ui-scale"), "2") << written;
  EXPECT_EQ(value_of(keys, "light"), "") << "a switch stands alone: " << written;
  EXPECT_EQ(value_of(keys, "length"), "(absent)") << "the preset's own length is implied: " << written;
}

TEST(UrlFragment, ABadKeyIsLeftOutAndNamedTheRestApplies) {
  app::AppState s = app::default_state();
  const auto problems = app::apply_url_fragment(s, "view=relative-score&theta=abc&dim=63&bogus=1&length=300&position=5000");
  std::string named;
  for (const auto& p : problems) named += p.key + ";";
  EXPECT_NE(named.find("theta;"), std::string::npos) << named;
  EXPECT_NE(named.find("dim;"), std::string::npos) << named;
  EXPECT_NE(named.find("bogus;"), std::string::npos) << named;
  EXPECT_NE(named.find("position;"), std::string::npos) << "position past the length: " << named;
  EXPECT_EQ(s.view, "relative-score");
  EXPECT_EQ(s.length, 300);
  EXPECT_EQ(s.rope.theta, 10000.0);
  EXPECT_EQ(s.rope.head_dim, 64);
}

TEST(UrlFragment, PageKeysGoToThePageRequest) {
  app::AppState s = app::default_state();
  app::PageRequest page;
  EXPECT_TRUE(app::apply_url_fragment(s, "lesson=positional-encoding-101&slide=3&notes&bench=90", &page).empty());
  EXPECT_EQ(page.lesson.value_or(""), "positional-encoding-101");
  EXPECT_EQ(page.slide, 2u);
  EXPECT_TRUE(page.notes);
  EXPECT_EQ(page.bench_frames.value_or(0), 90);
  const auto bad = app::apply_url_fragment(s, "slide=0&bench=x", &page);
  EXPECT_EQ(bad.size(), 2u);
}

// A link is input anyone can send: it sets what is shown, and never opens a file (those come
// in by the reader's own action); a model on the Hub it may name. Real files and a real model name, so the
// refusal is the link's, not a missing file's.
TEST(UrlFragment, ALinkOpensNoFilesModelsOrLessonFiles) {
  namespace fs = std::filesystem;
  const fs::path root(PE_SOURCE_DIR);
  const std::string config = (root / "assets" / "presets" / "llama-3.1-8b.json").string();
  const std::string lesson = (root / "assets" / "lessons" / "positional-encoding-101.md").string();
  const std::string weights = (root / "tests" / "data" / "stories260K").string();
  ASSERT_TRUE(fs::exists(config) && fs::exists(lesson) && fs::exists(weights));
  const app::AppState before = app::default_state();
  for (const auto& [key, value] : Pairs{{"config", config},
                                        {"gguf", (root / "tests" / "fuzz" / "corpus" / "fuzz_gguf" / "qwen2_yarn.gguf").string()},
                                        {"model", weights},
                                        {"model", "../" + std::string("org/name")},
                                        {"weights", weights},
                                        {"weights", "org/name"},
                                        {"lesson", lesson}}) {
    app::AppState s = app::default_state();
    app::PageRequest page;
    const std::string fragment = app::join_fragment({{"view", "rope-cos"}, {key, value}, {"theta", "20000"}});
    const auto problems = app::apply_url_fragment(s, fragment, &page);
    ASSERT_EQ(problems.size(), 1u) << fragment;
    EXPECT_EQ(problems[0].key, key);
    if (key == "lesson") {
      EXPECT_NE(problems[0].message.find("a link opens no lesson file"), std::string::npos) << problems[0].message;
    } else {
      EXPECT_NE(problems[0].message.find("a link opens no files or models"), std::string::npos) << problems[0].message;
      EXPECT_NE(problems[0].message.find("--" + key), std::string::npos) << "names the way that works: " << problems[0].message;
    }
    EXPECT_FALSE(page.lesson.has_value()) << fragment;
    EXPECT_EQ(s.model_source, before.model_source) << fragment;
    EXPECT_EQ(s.weights, before.weights) << fragment;
    EXPECT_EQ(s.rope.head_dim, before.rope.head_dim) << fragment;
    EXPECT_EQ(s.view, "rope-cos") << "the other keys apply: " << fragment;
    EXPECT_EQ(s.rope.theta, 20000.0) << "the other keys apply: " << fragment;
  }
  // The built-in lessons still open from a link (tests above and the web tests use them).
  app::AppState s = app::default_state();
  app::PageRequest page;
  EXPECT_TRUE(app::apply_url_fragment(s, "lesson=rope-scaling-in-practice", &page).empty());
  EXPECT_EQ(page.lesson.value_or(""), "rope-scaling-in-practice");
  // A model on the Hub by its name is not a file: the page is asked to fetch it by name (the
  // Model field's Enter), nothing applied to the state yet; without a page request, refused.
  app::AppState m = app::default_state();
  app::PageRequest hub;
  EXPECT_TRUE(app::apply_url_fragment(m, "model=meta-llama%2FLlama-3.1-8B%40main&theta=20000", &hub).empty());
  EXPECT_EQ(hub.model.value_or(""), "meta-llama/Llama-3.1-8B@main");
  EXPECT_EQ(m.model_source, before.model_source);
  EXPECT_EQ(m.rope.theta, 20000.0);
  EXPECT_EQ(app::apply_url_fragment(m, "model=meta-llama/Llama-3.1-8B").size(), 1u);
  // The desktop app takes no link at all: only a page has an address.
  EXPECT_FALSE(app::host::capabilities().page_url);
  EXPECT_FALSE(app::host::url_fragment().has_value());
}

// A link longer than any pe-viz writes is read up to kMaxLinkKeys keys; the rest is named.
TEST(UrlFragment, ALongLinkIsCutAtItsKeyLimit) {
  std::string fragment = "view=alibi";
  for (std::size_t k = 0; k < 3 * app::kMaxLinkKeys; ++k) fragment += "&k" + std::to_string(k) + "=1";
  app::AppState s = app::default_state();
  const auto problems = app::apply_url_fragment(s, fragment);
  ASSERT_EQ(problems.size(), app::kMaxLinkKeys) << "every key read but the view is unknown, then one for the rest";
  EXPECT_NE(problems.back().message.find("more than " + std::to_string(app::kMaxLinkKeys) + " keys"), std::string::npos)
      << problems.back().message;
  EXPECT_EQ(s.view, "alibi");
}

// Opening the written link from the defaults gives the same options and the same model.
void expect_round_trip(const app::AppState& s, const std::string& what) {
  bool exact = false;
  const std::string fragment = app::url_fragment_for(s, &exact);
  EXPECT_TRUE(exact) << what << ": " << fragment;
  app::AppState opened = app::default_state();
  EXPECT_TRUE(app::apply_url_fragment(opened, fragment).empty()) << fragment;
  Pairs a = app::state_option_values(opened), b = app::state_option_values(s);
  std::erase_if(a, [](const auto& kv) { return kv.first == "preset"; });
  std::erase_if(b, [](const auto& kv) { return kv.first == "preset"; });
  EXPECT_EQ(a, b) << what << ": " << fragment;
}

TEST(UrlFragment, EveryPresetAndEditedStatesRoundTrip) {
  expect_round_trip(app::default_state(), "defaults");
  EXPECT_EQ(app::url_fragment_for(app::default_state()), "view=sinusoidal");
  for (const auto& preset : pe::list_presets()) {
    app::AppState s = app::default_state();
    app::apply_preset(s, preset.key);
    s.view = "scaling";
    expect_round_trip(s, preset.key);
    s.rope.theta *= 3;
    s.preset.clear();  // as the panel does when θ is edited
    s.position = 7;
    expect_round_trip(s, preset.key + " with θ × 3");
  }
  app::AppState s = app::default_state();
  s.view = "permutation";
  s.tokens = "a cat & a dog";
  s.tokens_b = "a dog & a cat";
  s.sections = {8, 12, 12};
  s.colormap = app::ColormapChoice::Cividis;
  s.grid = true;
  s.pixel_mean = false;
  s.theta_low = 123.5;
  s.walkthrough_step = 3;
  s.p_rope = 0.75;
  expect_round_trip(s, "display and text options");
  // Issue 32's parameters, the causal switch and a sentence with punctuation and '&' included.
  app::AppState r = pe_test::with_relative_parameters(app::default_state());
  r.view = "cope";
  r.pos_att_type = "c2p";
  r.cope_text = "Tom & Ann met. Then, 100% sure: they left!";
  r.cope_gates = "words";
  expect_round_trip(r, "relative-position parameters");
  EXPECT_EQ(value_of(app::split_fragment(app::url_fragment_for(r)), "causal"), "") << "a switch stands alone";
}

TEST(UrlFragment, BadRelativeValuesAreLeftOutAndNamed) {
  app::AppState s = app::default_state();
  const auto problems = app::apply_url_fragment(s, "view=t5-bias&max-distance=8&r2=3&position_buckets=1&heads=16&cope-gates=nouns");
  std::string named;
  for (const auto& p : problems) named += p.key + ";";
  for (const char* key : {"max-distance;", "r2;", "position_buckets;", "cope-gates;"})
    EXPECT_NE(named.find(key), std::string::npos) << key << " in " << named;
  EXPECT_EQ(s.view, "t5-bias");
  EXPECT_EQ(s.heads, 16);
  EXPECT_EQ(s.max_distance, 128);
  EXPECT_EQ(s.r2, 0.5);
}

}  // namespace
