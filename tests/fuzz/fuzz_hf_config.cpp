// bytes → pe::parse_hf_config. Refusal must be a ConfigError (never another exception or a
// crash); an accepted config must pass validate() and give usable frequencies at the
// lengths the app asks for (1, the training window, past it: dynamic/longrope switch there).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "pe/config.hpp"
#include "pe/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  pe::RopeConfig c;
  try {
    c = pe::parse_hf_config(text, "fuzz.json");
  } catch (const pe::ConfigError& e) {
    PE_FUZZ_CHECK(e.what()[0] != '\0', "empty ConfigError message");
    return 0;
  }
  pe::validate(c);  // parse_hf_config promises a validated config: a throw here is a crash
  const long long l_orig = c.original_max_position_embeddings();
  for (long long length : {1LL, l_orig}) pe_fuzz::check_frequencies(pe::scaled_frequencies(c, length), c);
  pe_fuzz::exercise_rope(c, std::min(l_orig + 1, pe::kMaxLength), static_cast<std::uint64_t>(size));
  return 0;
}
