// Bad input, table-driven (issue 8): every case runs the real binary (fork/exec, 60 s
// timeout, stderr captured) and expects a clean refusal — an exit code, not a signal or a
// sanitizer abort; a message naming the parameter, key or path; no hang; and the output
// directory exactly as before (no new file, no partial file, no temporary, a pre-existing
// file unchanged). Config and session cases are also fed to the parser in-process.
//
// Accepted on purpose (a polished tool takes them): a UTF-8 BOM before a config.json or a
// session (Windows editors write one), and length = 10^12 (core's documented maximum).
#include <sys/stat.h>

#include <functional>

#include "child_process.hpp"
#include "pe/models/config.hpp"
#include "platform/atomic_file.hpp"
#include "state/session_file.hpp"
#include "test_support.hpp"

namespace {

using namespace pe_test;

// scripts/test.sh --sanitize sets exitcode=86 for ASan/UBSan/LSan: never a valid refusal.
constexpr int kSanitizerExitCode = 86;
constexpr double kTimeoutSeconds = 60;

enum class Expect { Reject, Accept };
enum class Parser { None, Config, Session };

struct Case {
  std::string name;
  // {out}: the watched output directory; {cfg}: the input file; {work}: the case's root.
  std::vector<std::string> args;
  std::vector<std::string> names;  // stderr must contain each
  std::string file;                // contents of {cfg}, when the case has one
  Parser parser = Parser::None;    // also check the parser in-process (names[0] in its message)
  Expect expect = Expect::Reject;
  std::function<void(const fs::path& work)> setup = {};
};

std::vector<std::string> export_args(std::vector<std::string> extra, const std::string& view = "rope-cos",
                                     const std::string& size = "320x240") {
  std::vector<std::string> a{"export", "--view", view, "--size", size, "-o", "{out}/x.png"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}
std::vector<std::string> dump_config() { return {"dump", "--config", "{cfg}"}; }
std::vector<std::string> export_session() { return {"export", "--session", "{cfg}", "--size", "320x240", "-o", "{out}/x.png"}; }

// A config.json around a rope_scaling block (head_dim 8: LongRoPE wants 4 factors).
std::string config_with_scaling(const std::string& scaling) {
  return R"({"rope_theta": 10000, "head_dim": 8, "max_position_embeddings": 4096, "rope_scaling": )" + scaling + "}";
}

void make_read_only_file(const fs::path& path, const std::string& contents) {
  std::ofstream(path, std::ios::binary) << contents;
  fs::permissions(path, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
}

const std::string kGoodConfig = R"({"rope_theta": 500000, "head_dim": 64, "max_position_embeddings": 8192})";

std::vector<Case> cases() {
  std::vector<Case> c;
  // ---- parameters on the command line (export: the output must not appear) ----
  c.push_back({"dim_odd", export_args({"--dim", "7"}), {"dim", "7"}});
  c.push_back({"dim_zero", export_args({"--dim", "0"}), {"dim", "0"}});
  c.push_back({"theta_negative", export_args({"--theta=-5"}), {"theta", "-5"}});
  c.push_back({"theta_nan", export_args({"--theta", "nan"}), {"theta"}});
  c.push_back({"theta_infinite", export_args({"--theta", "inf"}), {"theta"}});
  c.push_back({"theta_one", export_args({"--theta", "1"}), {"theta", "1"}});
  c.push_back({"length_zero", export_args({"--length", "0"}), {"length", "0"}});
  c.push_back({"length_above_1e12", export_args({"--length", "1000000000001"}), {"length", "1000000000001"}});
  c.push_back({"length_1e12_is_the_maximum", {"dump", "--length", "1000000000000"}, {}, "", Parser::None, Expect::Accept});
  c.push_back({"factor_below_one", export_args({"--scaling", "linear", "--factor", "0.5"}), {"factor", "0.5"}});
  c.push_back({"factor_nan", export_args({"--scaling", "linear", "--factor", "nan"}), {"factor"}});
  c.push_back({"scaling_unknown", export_args({"--scaling", "warp"}), {"scaling", "warp"}});
  c.push_back({"view_unknown", export_args({}, "no-such-view"), {"view", "no-such-view"}});
  c.push_back({"mistake_unknown", export_args({"--mistake", "seed-002"}, "common-mistake"), {"mistake", "seed-002", "interleaved-cache"}});
  c.push_back({"size_zero", export_args({}, "rope-cos", "0x0"), {"size", "0x0"}});
  c.push_back({"size_huge", export_args({}, "rope-cos", "100000x100000"), {"size", "100000x100000"}});
  c.push_back({"output_in_missing_directory",
               {"export", "--view", "rope-cos", "--size", "320x240", "-o", "{work}/missing/x.png"},
               {"{work}/missing/x.png", "No such file or directory"}});
  c.push_back({"output_read_only_file",
               {"export", "--view", "rope-cos", "--size", "320x240", "-o", "{out}/ro.png"},
               {"{out}/ro.png", "read-only"}, "", Parser::None, Expect::Reject,
               [](const fs::path& work) { make_read_only_file(work / "out" / "ro.png", "keep me"); }});
  // A file name given as the positional (it is --lesson's folder): the message says to use -o.
  c.push_back({"output_as_positional", {"export", "--view", "rope-cos", "--size", "320x240", "{out}/x.png"},
               {"{out}/x.png", "--lesson", "-o {out}/x.png"}});
  // A picture named like something else (the numbers are --csv): refused, nothing written.
  c.push_back({"output_not_png", {"export", "--view", "rope-cos", "--size", "320x240", "-o", "{out}/x.csv"},
               {"output", "{out}/x.csv", "FILE.png", "--csv"}});
  c.push_back({"csv_in_missing_directory", export_args({"--csv", "{work}/missing/x.csv"}), {"{work}/missing/x.csv"}});
  c.push_back({"csv_read_only_file", export_args({"--csv", "{out}/ro.csv"}), {"{out}/ro.csv", "read-only"}, "",
               Parser::None, Expect::Reject,
               [](const fs::path& work) { make_read_only_file(work / "out" / "ro.csv", "a,b\n"); }});
  c.push_back({"deck_directory_is_a_file", {"export", "--all", "{out}/deck", "--size", "320x240"}, {"{out}/deck"}, "",
               Parser::None, Expect::Reject, [](const fs::path& work) { std::ofstream(work / "out" / "deck") << "x"; }});
  c.push_back({"dump_rows_too_many", {"dump", "--preset", "llama-3.1-8b", "--rows", "100000"}, {"rows"}});
  c.push_back({"dump_convention_unknown", {"dump", "--convention", "diagonal"}, {"convention", "diagonal"}});

  // ---- config.json (dump --config, and once through export and the GUI) ----
  const std::string truncated = R"({"rope_theta": 10000, "head_dim": 64,)";
  c.push_back({"config_truncated", dump_config(), {"config.json", "line 1"}, truncated, Parser::Config});
  c.push_back({"config_truncated_export", export_args({"--config", "{cfg}"}), {"config.json", "line 1"}, truncated});
  c.push_back({"config_truncated_gui", {"--config", "{cfg}", "--screenshot", "{out}/x.png"}, {"config.json", "line 1"}, truncated});
  c.push_back({"config_theta_is_a_string", dump_config(), {"rope_theta", "string"},
               R"({"rope_theta": "10000", "head_dim": 64, "max_position_embeddings": 4096})", Parser::Config});
  c.push_back({"config_head_dim_is_a_list", dump_config(), {"head_dim"},
               R"({"head_dim": [64], "max_position_embeddings": 4096})", Parser::Config});
  c.push_back({"config_scaling_is_a_number", dump_config(), {"rope_scaling"}, config_with_scaling("5"), Parser::Config});
  c.push_back({"config_head_dim_odd", dump_config(), {"head_dim", "7"},
               R"({"head_dim": 7, "max_position_embeddings": 4096})", Parser::Config});
  c.push_back({"config_theta_negative", dump_config(), {"rope_theta", "-1"},
               R"({"rope_theta": -1, "head_dim": 64, "max_position_embeddings": 4096})", Parser::Config});
  c.push_back({"config_theta_overflows", dump_config(), {"rope_theta"},
               R"({"rope_theta": 1e400, "head_dim": 64, "max_position_embeddings": 4096})", Parser::Config});
  c.push_back({"config_max_positions_zero", dump_config(), {"max_position_embeddings"},
               R"({"head_dim": 64, "max_position_embeddings": 0})", Parser::Config});
  c.push_back({"config_factor_below_one", dump_config(), {"rope_scaling.factor", "0.5"},
               config_with_scaling(R"({"rope_type": "linear", "factor": 0.5})"), Parser::Config});
  c.push_back({"config_factor_is_null_for_linear", dump_config(), {"rope_scaling.factor"},
               config_with_scaling(R"({"rope_type": "linear", "factor": null})"), Parser::Config});
  c.push_back({"longrope_short_factor_wrong_length", dump_config(), {"short_factor"},
               config_with_scaling(R"({"rope_type": "longrope", "short_factor": [1, 1], "long_factor": [1, 2, 3, 4],
                                       "original_max_position_embeddings": 1024})"),
               Parser::Config});
  c.push_back({"longrope_long_factor_wrong_length", dump_config(), {"long_factor"},
               config_with_scaling(R"({"rope_type": "longrope", "short_factor": [1, 1, 1, 1], "long_factor": [1, 2, 3, 4, 5, 6],
                                       "original_max_position_embeddings": 1024})"),
               Parser::Config});
  c.push_back({"yarn_beta_fast_below_beta_slow", dump_config(), {"beta_fast"},
               config_with_scaling(R"({"rope_type": "yarn", "factor": 4, "beta_fast": 1, "beta_slow": 32,
                                       "original_max_position_embeddings": 1024})"),
               Parser::Config});
  c.push_back({"rope_type_unknown", dump_config(), {"rope_type", "spiral"},
               config_with_scaling(R"({"rope_type": "spiral", "factor": 2})"), Parser::Config});
  c.push_back({"config_top_level_list", dump_config(), {"object"}, "[1, 2, 3]", Parser::Config});
  c.push_back({"config_empty_file", dump_config(), {"config.json"}, "", Parser::Config});
  c.push_back({"config_invalid_utf8", dump_config(), {"config.json", "UTF-8"},
               "{\"pe_viz_title\": \"\xff\xfe\", \"head_dim\": 64, \"max_position_embeddings\": 4096}", Parser::Config});
  c.push_back({"config_deeply_nested", dump_config(), {"config.json"}, std::string(100000, '[') + std::string(100000, ']'),
               Parser::Config});
  c.push_back({"config_100_mb", dump_config(), {"config.json", "too large"}, "", Parser::None, Expect::Reject,
               [](const fs::path& work) {
                 // 100 MB of a valid-looking JSON object: refused by size, never read into memory.
                 std::ofstream f(work / "cfg" / "config.json", std::ios::binary);
                 f << "{\"pad\": \"";
                 const std::string block(1 << 20, 'x');
                 for (int i = 0; i < 100; ++i) f << block;
                 f << "\"}";
               }});
  c.push_back({"config_missing", {"dump", "--config", "{work}/nope/config.json"}, {"{work}/nope/config.json"}});
  c.push_back({"config_is_a_directory", {"dump", "--config", "{work}"}, {"{work}"}});
  c.push_back({"config_with_bom_is_accepted", dump_config(), {}, "\xEF\xBB\xBF" + kGoodConfig, Parser::Config, Expect::Accept});

  // ---- sessions (export --session) ----
  c.push_back({"session_truncated", export_session(), {"config.json", "line 2"}, "{\"pe_viz_session\": 1,\n  \"length\": ",
               Parser::Session});
  c.push_back({"session_length_is_a_string", export_session(), {"length", "string"},
               R"({"pe_viz_session": 1, "length": "long"})", Parser::Session});
  c.push_back({"session_length_zero", export_session(), {"length"}, R"({"pe_viz_session": 1, "length": 0})", Parser::Session});
  c.push_back({"session_view_unknown", export_session(), {"view", "no-such-view"},
               R"({"pe_viz_session": 1, "view": "no-such-view"})", Parser::Session});
  c.push_back({"session_top_level_list", export_session(), {"object"}, "[]", Parser::Session});
  c.push_back({"session_with_bom_is_accepted",
               {"export", "--session", "{cfg}", "--size", "320x240", "-o", "{work}/accepted.png"}, {},
               "\xEF\xBB\xBF" R"({"pe_viz_session": 1, "view": "alibi", "length": 64})", Parser::Session, Expect::Accept});

  // ---- the GUI's own options (fail before any window opens) ----
  c.push_back({"gui_theta_nan", {"--theta", "nan", "--screenshot", "{out}/x.png"}, {"theta"}});
  c.push_back({"gui_view_unknown", {"--view", "no-such-view", "--screenshot", "{out}/x.png"}, {"view", "no-such-view"}});
  c.push_back({"gui_width_zero", {"--width", "0", "--screenshot", "{out}/x.png"}, {"--width"}});
  // Issue 32: where the reference would divide by zero or take log(<= 0), the parameter and its range.
  c.push_back({"t5_max_distance_at_max_exact", export_args({"--max-distance", "8"}, "t5-bias"), {"max_distance", "8", "9"}});
  c.push_back({"t5_causal_max_distance_at_max_exact", export_args({"--causal", "--max-distance", "16"}, "t5-bias"),
               {"max_distance", "16", "17"}});
  c.push_back({"t5_num_buckets_too_few", export_args({"--num-buckets", "3"}, "t5-bias"), {"num_buckets", "3"}});
  c.push_back({"t5_causal_not_a_switch_value", export_args({"--causal=maybe"}, "t5-bias"), {"--causal", "maybe"}});
  c.push_back({"deberta_one_bucket", export_args({"--position-buckets", "1"}, "deberta"), {"position_buckets", "1", "2"}});
  c.push_back({"deberta_max_position_at_mid_plus_one", export_args({"--max-relative-positions", "129"}, "deberta"),
               {"max_relative_positions", "129", "130"}});
  c.push_back({"kerple_r2_above_two", export_args({"--r2", "2.5"}, "distance-bias"), {"r2", "2.5", "2"}});
  c.push_back({"kerple_r2_zero", export_args({"--r2", "0"}, "distance-bias"), {"r2", "0"}});
  c.push_back({"kerple_r1_negative", export_args({"--r1=-1"}, "distance-bias"), {"r1", "-1"}});
  c.push_back({"fire_c_zero", export_args({"--fire-c", "0"}, "distance-bias"), {"fire_c", "0"}});
  c.push_back({"sandwich_dim_odd", export_args({"--sandwich-dim", "7"}, "distance-bias"), {"sandwich_dim", "7"}});
  c.push_back({"xpos_scale_base_zero", export_args({"--scale-base", "0"}, "xpos"), {"scale_base", "0"}});
  c.push_back({"cope_gates_unknown", export_args({"--cope-gates", "nouns"}, "cope"), {"cope_gates", "nouns", "sentence-ends"}});
  c.push_back({"cope_text_empty", export_args({"--cope-text", " "}, "cope"), {"cope_text", "0 tokens"}});
  c.push_back({"pos_att_type_p2p", export_args({"--pos-att-type", "p2p"}, "deberta"), {"pos_att_type", "p2p"}});
  c.push_back({"training_length_one", export_args({"--training-length", "1"}, "distance-bias"), {"training_length", "1"}});
  c.push_back({"t5_session_max_distance", export_session(), {"max_distance"},
               R"({"pe_viz_session": 1, "view": "t5-bias", "max_distance": 8})", Parser::Session});
  return c;
}

std::string substitute(std::string s, const fs::path& work) {
  const std::pair<std::string, fs::path> keys[] = {
      {"{out}", work / "out"}, {"{cfg}", work / "cfg" / "config.json"}, {"{work}", work}};
  for (const auto& [k, v] : keys)
    for (std::size_t at; (at = s.find(k)) != std::string::npos;) s.replace(at, k.size(), v.string());
  return s;
}

// Names and bytes of everything in `dir` (hidden temporaries included).
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::directory_iterator(dir))
    files[e.path().filename().string()] = e.is_regular_file() ? read_file(e.path()) : std::string("<dir>");
  return files;
}

// The in-process error names the case's first name (unless that is just the file name).
void expect_names_key(const Case& c, const std::string& what) {
  if (c.names.empty() || c.names.front() == "config.json") return;
  EXPECT_NE(what.find(c.names.front()), std::string::npos) << what;
}

class BadInputMatrix : public ::testing::TestWithParam<Case> {};

TEST_P(BadInputMatrix, RefusedCleanly) {
  const Case& c = GetParam();
  TempDir tmp;
  const fs::path work = tmp.path();
  for (const char* d : {"out", "cfg", "home", "io"}) fs::create_directories(work / d);
  if (!c.file.empty()) std::ofstream(work / "cfg" / "config.json", std::ios::binary) << c.file;
  if (c.parser != Parser::None && c.file.empty()) std::ofstream(work / "cfg" / "config.json");  // an empty file
  if (c.setup) c.setup(work);
  const auto before = snapshot(work / "out");

  std::vector<std::string> args;
  for (const auto& a : c.args) args.push_back(substitute(a, work));
  std::string command = "pe-viz";
  for (const auto& a : args) command += " " + a;
  SCOPED_TRACE(command);
  Child child(args, isolated_env(work / "home"), work / "io");
  const ChildResult r = child.wait(kTimeoutSeconds);

  ASSERT_FALSE(r.timed_out) << "hung\n" << describe(r);
  ASSERT_TRUE(r.exited) << "killed by a signal instead of exiting\n" << describe(r);
  ASSERT_NE(r.exit_code, kSanitizerExitCode) << "sanitizer report\n" << describe(r);
  if (c.expect == Expect::Accept) {
    EXPECT_EQ(r.exit_code, 0) << describe(r);
  } else {
    EXPECT_NE(r.exit_code, 0) << describe(r);
    for (const auto& n : c.names) {
      const std::string name = substitute(n, work);
      EXPECT_NE(r.err.find(name), std::string::npos) << "stderr does not name \"" << name << "\"\n" << describe(r);
    }
    EXPECT_EQ(r.out.find("wrote"), std::string::npos) << describe(r);
  }
  if (c.expect == Expect::Reject) {
    EXPECT_EQ(snapshot(work / "out"), before) << "the output directory changed\n" << describe(r);
  }

  if (c.parser == Parser::None) return;
  // The same text through the parser, in-process: a typed error naming the key.
  const std::string text = read_file(work / "cfg" / "config.json");
  try {
    if (c.parser == Parser::Config) {
      (void)pe::parse_hf_config(text);
    } else {
      std::vector<std::string> warnings;
      (void)app::session_from_json(text, app::default_state(), warnings);
    }
    EXPECT_EQ(c.expect, Expect::Accept) << "the parser accepted it";
  } catch (const pe::ConfigError& e) {
    EXPECT_EQ(c.expect, Expect::Reject) << e.what();
    expect_names_key(c, e.what());
  } catch (const app::SessionError& e) {
    EXPECT_EQ(c.expect, Expect::Reject) << e.what();
    expect_names_key(c, e.what());
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, BadInputMatrix, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

// A session written with a BOM (by an editor on Windows) loads like the same file without.
TEST(BadInputMatrixExtras, SessionWithBomLoads) {
  const app::AppState base = app::default_state();
  std::vector<std::string> warnings;
  const std::string text = R"({"pe_viz_session": 1, "view": "alibi", "length": 64})";
  const app::AppState plain = app::session_from_json(text, base, warnings);
  const app::AppState bom = app::session_from_json("\xEF\xBB\xBF" + text, base, warnings);
  EXPECT_EQ(bom.view, "alibi");
  EXPECT_EQ(bom.length, plain.length);
}

TEST(BadInputMatrixExtras, AtLeastThirtyCases) { EXPECT_GE(cases().size(), 30u); }

}  // namespace
