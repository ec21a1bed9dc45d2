// Saved sessions (issue 5): save → reopen → export gives the identical PNG; unknown keys
// are ignored with a warning; malformed files are refused with a SessionError naming the
// line or key; writes are atomic, and unwritable paths throw naming the path while the
// app goes on.
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "export/view_export.hpp"
#include "state/session_file.hpp"
#include "relative_test_state.hpp"
#include "test_support.hpp"

namespace {

using namespace pe_test;
using nlohmann::json;

const bool kRegistered = register_session_environment();

class SessionFileTest : public SessionTest {};

// A state far from the defaults in everything the views read.
app::AppState unusual_state() {
  app::AppState s = known_state("rope-cos");
  app::apply_preset(s, "llama-3.1-8b");
  s.view = "rope-cos";
  s.length = 8192;
  s.position = 4000;
  s.pair = 17;
  s.rope.theta = 250000.0;  // an edited θ on top of the preset
  s.colormap = app::ColormapChoice::Viridis;
  s.pixel_mean = false;
  s.dark_theme = false;
  s.seed = 12345;
  s.samples = 16;
  s.anchor = 7;
  s.delta_axis = "log";
  s.heads = 12;
  s.head = 5;
  s.vector = {0.1, -0.2, 0.3, -0.4};
  return s;
}

std::string file_bytes(const fs::path& p) { return read_file(p); }

TEST_F(SessionFileTest, SavedSessionReopensToByteIdenticalExports) {
  TempDir dir;
  const app::AppState original = unusual_state();
  ASSERT_EQ(app::validate_state(original), "");
  session().state() = original;
  const char* views[] = {"rope-cos", "clock-hands", "relative-score", "alibi"};
  // Each export is preceded by a throw-away one of the same request: the first export after
  // a state change can differ (export_views_test's ExportDoesNotDependOnWhatWasDrawnBefore
  // covers that); this test is about what the session file keeps.
  for (const char* v : views) {
    app::render_view_pixels(session(), v, 800, 600, app::Background::Theme);
    app::export_view_png(session(), {v, 800, 600, app::Background::Theme, dir / (std::string("before_") + v + ".png")});
  }

  const fs::path file = dir / "session.json";
  ASSERT_NO_THROW(app::save_session(file, session().state()));
  // Something else in between: the defaults, rendered, so no cache from before survives by accident.
  session().state() = known_state("sinusoidal");
  window_frames(2);

  std::vector<std::string> warnings;
  app::AppState reopened;
  ASSERT_NO_THROW(reopened = app::load_session(file, known_state("sinusoidal"), warnings));
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  EXPECT_EQ(reopened.view, "rope-cos");
  EXPECT_EQ(reopened.preset, "llama-3.1-8b");
  EXPECT_EQ(reopened.rope.theta, 250000.0);
  EXPECT_EQ(reopened.rope.head_dim, 128);
  EXPECT_EQ(reopened.rope.scaling.type, pe::RopeType::Llama3);
  EXPECT_EQ(reopened.rope.scaling.factor, 8.0);
  EXPECT_EQ(reopened.length, 8192);
  EXPECT_EQ(reopened.position, 4000);
  EXPECT_EQ(reopened.pair, 17);
  EXPECT_EQ(reopened.colormap, app::ColormapChoice::Viridis);
  EXPECT_FALSE(reopened.pixel_mean);
  EXPECT_FALSE(reopened.dark_theme);
  EXPECT_EQ(reopened.seed, 12345u);
  EXPECT_EQ(reopened.vector, original.vector);
  EXPECT_EQ(reopened.heads, 12);
  EXPECT_EQ(reopened.head, 5);
  EXPECT_EQ(reopened.delta_axis, "log");

  session().state() = reopened;
  for (const char* v : views) {
    SCOPED_TRACE(v);
    const fs::path after = dir / (std::string("after_") + v + ".png");
    app::render_view_pixels(session(), v, 800, 600, app::Background::Theme);
    app::export_view_png(session(), {v, 800, 600, app::Background::Theme, after});
    const std::string a = file_bytes(dir / (std::string("before_") + v + ".png")), b = file_bytes(after);
    ASSERT_FALSE(a.empty());
    EXPECT_TRUE(a == b) << "export after reopening differs from the export before saving ("
                        << differing_pixels(decode_png(dir / (std::string("before_") + v + ".png")), decode_png(after))
                        << " pixels)";
  }
  EXPECT_TRUE(render::drain_gl_errors().empty());
}

TEST_F(SessionFileTest, SavedFileIsVersionedJsonWithReadablePermissions) {
  TempDir dir;
  const fs::path file = dir / "s.json";
  app::save_session(file, unusual_state());
  const json j = json::parse(file_bytes(file));
  EXPECT_EQ(j.at("pe_viz_session"), app::kSessionVersion);
  EXPECT_EQ(j.at("view"), "rope-cos");
  EXPECT_EQ(j.at("length"), 8192);
  struct stat st {};
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
  // Saving over an existing session replaces it; nothing else is left in the directory.
  app::AppState other = known_state("alibi");
  app::save_session(file, other);
  EXPECT_EQ(json::parse(file_bytes(file)).at("view"), "alibi");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"s.json"});
}

TEST_F(SessionFileTest, UnknownKeysAreIgnoredWithAWarningEach) {
  json j = json::parse(app::session_to_json(known_state("clock-hands")));
  j["from_the_future"] = {1, 2, 3};
  j["rope"]["colour_of_theta"] = "blue";
  j["rope"]["scaling"]["extra_knob"] = 3.5;
  j["length"] = 256;
  std::vector<std::string> warnings;
  app::AppState s;
  ASSERT_NO_THROW(s = app::session_from_json(j.dump(2), app::default_state(), warnings));
  EXPECT_EQ(s.view, "clock-hands");
  EXPECT_EQ(s.length, 256);
  ASSERT_EQ(warnings.size(), 3u);
  std::string all;
  for (const auto& w : warnings) all += w + "\n";
  for (const char* key : {"from_the_future", "colour_of_theta", "extra_knob"})
    EXPECT_NE(all.find(key), std::string::npos) << key << " not named in warnings:\n" << all;
  // And the app renders the loaded session.
  session().state() = s;
  const Image im = window_frames(3);
  EXPECT_TRUE(is_not_blank(im, {400, 0, im.width, im.height}));
  EXPECT_TRUE(render::drain_gl_errors().empty());
}

TEST_F(SessionFileTest, MissingKeysKeepTheBaseValues) {
  std::vector<std::string> warnings;
  app::AppState base = known_state("alibi");
  base.length = 777;
  const app::AppState s = app::session_from_json(R"({"pe_viz_session": 1, "position": 5})", base, warnings);
  EXPECT_EQ(s.view, "alibi");
  EXPECT_EQ(s.length, 777);
  EXPECT_EQ(s.position, 5);
  EXPECT_TRUE(warnings.empty());
}

// Expects session_from_json(text) to throw SessionError whose message contains every needle.
void expect_refused(const std::string& text, std::initializer_list<std::string> needles) {
  SCOPED_TRACE(text.substr(0, 200));
  std::vector<std::string> warnings;
  try {
    app::session_from_json(text, app::default_state(), warnings);
    ADD_FAILURE() << "accepted a malformed session";
  } catch (const app::SessionError& e) {
    for (const auto& n : needles)
      EXPECT_NE(std::string(e.what()).find(n), std::string::npos) << "message does not name '" << n << "': " << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw something other than SessionError: " << e.what();
  }
}

std::string with(const std::function<void(json&)>& edit) {
  json j = json::parse(app::session_to_json(known_state()));
  edit(j);
  return j.dump(2);
}

TEST_F(SessionFileTest, TruncatedJsonNamesTheLine) {
  const std::string full = app::session_to_json(known_state());
  for (std::size_t cut : {full.size() / 3, full.size() / 2, full.size() - 3}) {
    const std::string text = full.substr(0, cut);
    // The parser reaches the end of input on the last line of the truncated text.
    const long long last_line = 1 + std::count(text.begin(), text.end(), '\n');
    expect_refused(text, {"line " + std::to_string(last_line)});
  }
  expect_refused("", {"line 1"});
}

TEST_F(SessionFileTest, SyntaxErrorInTheMiddleNamesItsLine) {
  // Line 4 has a doubled comma.
  const std::string text = "{\n  \"pe_viz_session\": 1,\n  \"view\": \"rope-cos\",\n  \"length\": 12,,\n  \"position\": 3\n}\n";
  expect_refused(text, {"line 4"});
}

TEST_F(SessionFileTest, WrongTypesNameTheKey) {
  expect_refused(with([](json& j) { j["length"] = "long"; }), {"length"});
  expect_refused(with([](json& j) { j["length"] = 12.5; }), {"length"});
  expect_refused(with([](json& j) { j["rope"]["theta"] = "big"; }), {"rope.theta"});
  expect_refused(with([](json& j) { j["rope"] = 5; }), {"rope"});
  expect_refused(with([](json& j) { j["rope"]["scaling"]["factor"] = json::array(); }), {"rope.scaling.factor"});
  expect_refused(with([](json& j) { j["rope"]["scaling"]["type"] = "warp-drive"; }), {"rope.scaling.type"});
  expect_refused(with([](json& j) { j["dark_theme"] = 1; }), {"dark_theme"});
  expect_refused(with([](json& j) { j["vector"] = {1.0, "x"}; }), {"vector"});
  expect_refused(with([](json& j) { j["colormap"] = "rainbow"; }), {"colormap", "rainbow"});
  expect_refused(with([](json& j) { j["rope"]["convention"] = "diagonal"; }), {"rope.convention"});
  expect_refused(with([](json& j) { j["length"] = 1e300; }), {"length"});
  expect_refused("[1, 2, 3]", {"object"});
}

TEST_F(SessionFileTest, InvalidValuesNameTheParameter) {
  expect_refused(with([](json& j) { j["rope"]["dim"] = 7; }), {"dim"});
  expect_refused(with([](json& j) { j["rope"]["dim"] = 0; }), {"dim"});
  expect_refused(with([](json& j) { j["rope"]["theta"] = 1.0; }), {"theta"});
  expect_refused(with([](json& j) { j["length"] = 0; }), {"length"});
  expect_refused(with([](json& j) { j["position"] = 128; }), {"position"});  // L = 128: 0 ... 127
  expect_refused(with([](json& j) { j["pair"] = 32; }), {"pair"});          // d = 64: 0 ... 31
  expect_refused(with([](json& j) { j["ui_scale"] = 9.0; }), {"ui_scale"});
  expect_refused(with([](json& j) { j["head"] = 0; }), {"head"});
}

// Issue 32's parameters: each round-trips, and a value the reference cannot take is refused
// naming its key (and the range, as core words it).
TEST_F(SessionFileTest, RelativeParametersRoundTripAndBadOnesAreNamed) {
  app::AppState s = pe_test::with_relative_parameters(known_state("t5-bias"));
  s.pos_att_type = "p2c";
  s.cope_text = "A \"quoted\", sentence. Done!";
  s.cope_gates = "punctuation";
  std::vector<std::string> warnings;
  const app::AppState r = app::session_from_json(app::session_to_json(s), app::default_state(), warnings);
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(r.num_buckets, 64);
  EXPECT_EQ(r.max_distance, 300);
  EXPECT_TRUE(r.causal);
  EXPECT_EQ(r.position_buckets, 128);
  EXPECT_EQ(r.max_relative_positions, 400);
  EXPECT_EQ(r.max_position_embeddings, 1024);
  EXPECT_EQ(r.pos_att_type, "p2c");
  EXPECT_EQ(r.position_embedding_type, "relative_key_query");
  EXPECT_EQ(r.scale_base, 123.5);
  EXPECT_EQ(r.r1, 0.25);
  EXPECT_EQ(r.r2, 1.75);
  EXPECT_EQ(r.sandwich_dim, 32);
  EXPECT_EQ(r.fire_c, 0.125);
  EXPECT_EQ(r.fire_threshold, 2048.0);
  EXPECT_EQ(r.cope_text, s.cope_text);
  EXPECT_EQ(r.cope_gates, "punctuation");
  EXPECT_EQ(r.cope_npos_max, 9);
  EXPECT_EQ(r.training_length, 4096);
  EXPECT_EQ(r.clamp_len, 77);
  expect_refused(with([](json& j) { j["max_distance"] = 8; }), {"max_distance", "8"});        // = num_buckets/4
  expect_refused(with([](json& j) { j["position_buckets"] = 1; }), {"position_buckets", "2"});
  expect_refused(with([](json& j) { j["r2"] = 2.5; }), {"r2", "2"});
  expect_refused(with([](json& j) { j["r2"] = 0; }), {"r2"});
  expect_refused(with([](json& j) { j["num_buckets"] = 8192; }), {"num_buckets", "4096"});
  expect_refused(with([](json& j) { j["sandwich_dim"] = 9; }), {"sandwich_dim"});
  expect_refused(with([](json& j) { j["scale_base"] = -3; }), {"scale_base"});
  expect_refused(with([](json& j) { j["fire_threshold"] = 0; }), {"fire_threshold"});
  expect_refused(with([](json& j) { j["cope_gates"] = "nouns"; }), {"cope_gates"});
  expect_refused(with([](json& j) { j["pos_att_type"] = "p2p"; }), {"pos_att_type"});
  expect_refused(with([](json& j) { j["causal"] = "yes"; }), {"causal"});
  expect_refused(with([](json& j) { j["training_length"] = 1; }), {"training_length"});
}

TEST_F(SessionFileTest, VersionIsRequiredAndChecked) {
  expect_refused(with([](json& j) { j["pe_viz_session"] = 99; }), {"pe_viz_session", "99"});
  expect_refused(with([](json& j) { j["pe_viz_session"] = 0; }), {"pe_viz_session"});
  expect_refused(with([](json& j) { j["pe_viz_session"] = "1"; }), {"pe_viz_session"});
  expect_refused(with([](json& j) { j.erase("pe_viz_session"); }), {"pe_viz_session"});
}

TEST_F(SessionFileTest, LoadSessionNamesTheFile) {
  TempDir dir;
  const fs::path bad = dir / "broken.json";
  {
    std::ofstream(bad) << "{\n  \"pe_viz_session\": 1,\n  \"length\": \n";
  }
  std::vector<std::string> warnings;
  try {
    app::load_session(bad, app::default_state(), warnings);
    ADD_FAILURE() << "truncated file accepted";
  } catch (const app::SessionError& e) {
    EXPECT_NE(std::string(e.what()).find(bad.string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("line"), std::string::npos) << e.what();
  }
  const fs::path missing = dir / "missing.json";
  try {
    app::load_session(missing, app::default_state(), warnings);
    ADD_FAILURE() << "missing file accepted";
  } catch (const app::SessionError& e) {
    EXPECT_NE(std::string(e.what()).find(missing.string()), std::string::npos) << e.what();
  }
  // A directory is not a session either (and must not crash or hang).
  EXPECT_THROW(app::load_session(dir.path(), app::default_state(), warnings), app::SessionError);
}

TEST_F(SessionFileTest, UnwritablePathsThrowNamingThePathAndTheAppGoesOn) {
  for (const fs::path& bad : {fs::path("/nonexistent-pe-viz-dir/s.json"), fs::path("/proc/forbidden/s.json")}) {
    SCOPED_TRACE(bad.string());
    try {
      app::save_session(bad, session().state());
      ADD_FAILURE() << "saving to " << bad << " did not throw";
    } catch (const app::SessionError& e) {
      EXPECT_NE(std::string(e.what()).find(bad.string()), std::string::npos) << e.what();
    }
    try {
      app::write_file_atomic(bad, "x");
      ADD_FAILURE() << "write_file_atomic to " << bad << " did not throw";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(bad.string()), std::string::npos) << e.what();
    }
  }
  // The session is untouched and still works: render, export, save elsewhere.
  EXPECT_EQ(session().state().view, "rope-cos");
  const Image im = window_frames(2);
  EXPECT_TRUE(is_not_blank(im, {400, 0, im.width, im.height}));
  TempDir dir;
  EXPECT_NO_THROW(app::save_session(dir / "ok.json", session().state()));
  EXPECT_NO_THROW(app::export_view_png(session(), {"rope-cos", 320, 200, app::Background::Theme, dir / "ok.png"}));
  EXPECT_TRUE(render::drain_gl_errors().empty());
}

TEST_F(SessionFileTest, AtomicWriteReplacesWholeFilesAndLeavesNoTemporaries) {
  TempDir dir;
  const fs::path file = dir / "data.txt";
  app::write_file_atomic(file, std::string(100000, 'a'));
  app::write_file_atomic(file, "short");
  EXPECT_EQ(file_bytes(file), "short");
  app::write_file_atomic(file, "");
  EXPECT_EQ(file_bytes(file), "");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"data.txt"});
  // A failed write leaves the previous contents in place.
  app::write_file_atomic(file, "kept");
  EXPECT_THROW(app::write_file_atomic(dir / "no-such-dir" / "data.txt", "lost"), std::runtime_error);
  EXPECT_EQ(file_bytes(file), "kept");
}

}  // namespace
