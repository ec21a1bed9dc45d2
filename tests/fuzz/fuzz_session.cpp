// bytes → app::session_from_json. Refusal must be a SessionError; an accepted session must
// pass validate_state, give the derived values the views use (or a message), run the
// small core computations, and survive a save → load round trip unchanged.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "pe/encodings/alibi.hpp"
#include "state/app_state.hpp"
#include "state/derived.hpp"
#include "state/session_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const app::AppState base = app::default_state();
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> warnings;
  app::AppState s;
  try {
    s = app::session_from_json(text, base, warnings);
  } catch (const app::SessionError& e) {
    PE_FUZZ_CHECK(e.what()[0] != '\0', "empty SessionError message");
    return 0;
  }
  const std::string error = app::validate_state(s);
  PE_FUZZ_CHECK(error.empty(), error);

  app::Derived d;
  app::update_derived(s, d);
  PE_FUZZ_CHECK(d.error.empty(), d.error);  // a valid state draws: views have no fallback
  pe_fuzz::check_frequencies(d.rope, s.rope);
  pe_fuzz::exercise_rope(s.rope, s.length, s.seed);
  pe_fuzz::exercise_rope(s.compare_b, s.length, s.seed);
  PE_FUZZ_CHECK(static_cast<long long>(app::effective_vector(s).size()) == s.rope.head_dim, "effective_vector size");
  const Eigen::ArrayXd slopes = pe::alibi_slopes(s.heads);
  PE_FUZZ_CHECK(slopes.size() == s.heads, "alibi_slopes size");
  (void)app::attention_params(s, d);
  (void)app::delta_axis_is_log(s);

  // Saving and loading again must give the same file (nothing lost, nothing refused).
  const std::string saved = app::session_to_json(s);
  std::vector<std::string> again_warnings;
  app::AppState again;
  try {
    again = app::session_from_json(saved, base, again_warnings);
  } catch (const app::SessionError& e) {
    pe_fuzz::fail("saved session reloads", e.what());
  }
  PE_FUZZ_CHECK(again_warnings.empty(), again_warnings.front());
  PE_FUZZ_CHECK(app::session_to_json(again) == saved, "round trip changed the session:\n" + saved);
  return 0;
}
