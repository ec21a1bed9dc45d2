// bytes → pe::parse_prompt_spec (the `dump --prompt` text) → pe::rope_index. Refusal must be
// an InvalidArgument naming "prompt" (or the option); an accepted spec must print back to
// itself, and its position ids must have one (t, h, w) per token, text tokens equal on
// all three axes, every id >= 0 and rope_delta = max id + 1 − tokens, for every model
// family and both transformers rules.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "pe/base/errors.hpp"
#include "pe/multimodal/multimodal.hpp"

namespace {

// Tokens one input may expand to (keeps an input well under a millisecond).
constexpr long long kMaxFuzzTokens = 1 << 15;

void check_ids(const std::vector<pe::PromptItem>& prompt, const pe::RopeIndexOptions& o) {
  pe::PositionIds ids;
  try {
    ids = pe::rope_index(prompt, o);
  } catch (const pe::InvalidArgument& e) {
    PE_FUZZ_CHECK(e.parameter() == "prompt", e.what());
    return;
  }
  const std::size_t n = ids.t.size();
  PE_FUZZ_CHECK(ids.h.size() == n && ids.w.size() == n && ids.kind.size() == n, "id array sizes");
  long long max_id = 0;
  for (std::size_t j = 0; j < n; ++j) {
    PE_FUZZ_CHECK(ids.t[j] >= 0 && ids.h[j] >= 0 && ids.w[j] >= 0, "negative id at " + std::to_string(j));
    if (ids.kind[j] == pe::PromptItemKind::Text)
      PE_FUZZ_CHECK(ids.t[j] == ids.h[j] && ids.h[j] == ids.w[j], "text token with unequal ids at " + std::to_string(j));
    max_id = std::max({max_id, ids.t[j], ids.h[j], ids.w[j]});
  }
  PE_FUZZ_CHECK(ids.rope_delta == max_id + 1 - static_cast<long long>(n), std::to_string(ids.rope_delta));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<pe::PromptItem> prompt;
  try {
    prompt = pe::parse_prompt_spec(text);
  } catch (const pe::InvalidArgument& e) {
    PE_FUZZ_CHECK(e.parameter() == "prompt", e.what());
    return 0;
  }
  const std::string printed = pe::format_prompt_spec(prompt);
  const auto again = pe::parse_prompt_spec(printed);
  PE_FUZZ_CHECK(pe::format_prompt_spec(again) == printed, printed);

  long long tokens = 0;  // upper bound before merging
  for (const auto& p : prompt) tokens += p.kind == pe::PromptItemKind::Text ? p.tokens : p.t * p.h * p.w;
  if (tokens > kMaxFuzzTokens) return 0;
  for (auto family : {pe::RopeIndexFamily::Qwen2VL, pe::RopeIndexFamily::Qwen25VL, pe::RopeIndexFamily::Qwen3VL})
    for (auto version : {pe::RopeIndexVersion::Transformers4, pe::RopeIndexVersion::Transformers5}) {
      pe::RopeIndexOptions o;
      o.family = family;
      o.version = version;
      o.tokens_per_second = 2.0;
      o.sample_fps = 0.5 + static_cast<double>(size % 7);
      o.spatial_merge_size = 1 + static_cast<long long>(size % 3);
      check_ids(prompt, o);
    }
  return 0;
}
