// Inputs found by the libFuzzer targets (tests/fuzz, scripts/fuzz.sh), each reduced to the
// smallest case that failed before its fix. In-process, no window.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/dump_command.hpp"
#include "export/state_options.hpp"
#include "pe/models/config.hpp"
#include "state/session_file.hpp"

namespace {

// fuzz_session: a number beyond double's range made nlohmann throw out_of_range (406),
// which session_from_json let escape instead of refusing the file with a SessionError.
TEST(FuzzRegressions, SessionWithOverflowingNumberIsRefusedAsSessionError) {
  const app::AppState base = app::default_state();
  for (const char* text : {R"({"pe_viz_session":1e400})", R"({"pe_viz_session":1,"theta_low":1e400})",
                           R"({"pe_viz_session":1,"rope":{"theta":-1e999}})"}) {
    std::vector<std::string> warnings;
    try {
      (void)app::session_from_json(text, base, warnings);
      ADD_FAILURE() << "accepted " << text;
    } catch (const app::SessionError& e) {
      EXPECT_NE(std::string(e.what()).find("number overflow"), std::string::npos) << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << text << " threw a non-SessionError: " << e.what();
    }
  }
}

// fuzz_cli_params: `--tokens $'\xff'` was accepted, then saving the session (autosave on
// exit) threw json::type_error 316 (invalid UTF-8) instead of writing the file.
TEST(FuzzRegressions, StateWithInvalidUtf8TokensSavesAndReloads) {
  const app::AppState base = app::default_state();
  app::StateOverrides o;
  CLI::App cli;
  app::add_state_options(cli, o);
  const char* argv[] = {"pe-viz", "--tokens", "the \xff\xfe dog", "--tokens-b", "dog the \xc3"};
  cli.parse(5, argv);
  app::AppState s = base;
  app::apply_overrides(s, o);

  std::string saved;
  ASSERT_NO_THROW(saved = app::session_to_json(s));
  std::vector<std::string> warnings;
  app::AppState again;
  ASSERT_NO_THROW(again = app::session_from_json(saved, base, warnings));
  // Each invalid byte reads back as U+FFFD; the word count the permutation view uses is kept.
  EXPECT_EQ(again.tokens, "the \xef\xbf\xbd\xef\xbf\xbd dog");
  EXPECT_EQ(app::split_tokens(again.tokens).size(), app::split_tokens(s.tokens).size());
  EXPECT_EQ(app::validate_state(again), "");
}

// Same class, found while fixing the above: `pe-viz dump --config <dir>/config.json` names
// the config after its directory, and a directory name that is not UTF-8 made the dump throw.
TEST(FuzzRegressions, DumpOfConfigNamedWithInvalidUtf8Works) {
  pe::RopeConfig c = pe::load_preset("llama-2-7b");
  c.name = "model-\xff";
  std::string text;
  ASSERT_NO_THROW(text = app::dump_json(c, 4096));
  EXPECT_NE(text.find("model-\xef\xbf\xbd"), std::string::npos);
}

}  // namespace
