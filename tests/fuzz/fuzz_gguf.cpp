// bytes → pe::parse_gguf and pe::parse_gguf_config. Refusal must be a GgufError with a
// message (never another exception, a crash, a hang or a huge allocation: counts and
// lengths are checked against the input's size before use). An accepted header must keep
// its promises (kept ≤ declared elements, aligned data section, bounded previews), and an
// accepted configuration must validate and give usable frequencies, like fuzz_hf_config.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "fuzz_common.hpp"
#include "pe/base/errors.hpp"
#include "pe/models/gguf.hpp"
#include "pe/models/gguf_rope.hpp"

namespace {

void check_value(const pe::GgufValue& v, int depth) {
  PE_FUZZ_CHECK(depth <= pe::kGgufMaxArrayDepth + 1, "depth " + std::to_string(depth));
  PE_FUZZ_CHECK(pe::preview(v).size() <= 96 * 3, "preview of " + std::to_string(pe::preview(v).size()) + " bytes");
  PE_FUZZ_CHECK(v.s.size() <= pe::kGgufKeptStringBytes, "kept string of " + std::to_string(v.s.size()) + " bytes");
  if (!v.is_array()) return;
  PE_FUZZ_CHECK(v.items.size() <= v.count, "kept " + std::to_string(v.items.size()) + " of " + std::to_string(v.count));
  PE_FUZZ_CHECK(v.items.size() <= pe::kGgufKeptArrayItems, "kept " + std::to_string(v.items.size()));
  for (const auto& item : v.items) check_value(item, depth + 1);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  pe::GgufFile f;
  try {
    f = pe::parse_gguf(bytes, "fuzz.gguf");
  } catch (const pe::GgufError& e) {
    PE_FUZZ_CHECK(e.what()[0] != '\0', "empty GgufError message");
    PE_FUZZ_CHECK(e.offset() <= size, "error offset " + std::to_string(e.offset()) + " past the input");
    return 0;
  }
  PE_FUZZ_CHECK(f.version == 2 || f.version == 3, std::to_string(f.version));
  PE_FUZZ_CHECK(f.file_size == size, "file_size");
  PE_FUZZ_CHECK(f.alignment && (f.alignment & (f.alignment - 1)) == 0, "alignment");
  PE_FUZZ_CHECK(f.tensors.empty() || f.data_offset % f.alignment == 0, "data_offset");
  for (const auto& kv : f.metadata) check_value(kv.value, 1);
  for (const auto& t : f.tensors) {
    PE_FUZZ_CHECK(t.shape.size() <= pe::kGgufMaxDims, t.name);
    PE_FUZZ_CHECK(t.offset % f.alignment == 0, t.name);
  }

  pe::GgufModelConfig m;
  try {
    m = pe::parse_gguf_config(bytes, "fuzz.gguf");
  } catch (const pe::GgufError& e) {
    PE_FUZZ_CHECK(e.what()[0] != '\0', "empty GgufError message");
    return 0;
  }
  const pe::RopeConfig& c = m.loaded.config;
  pe::validate(c);  // the mapping promises a validated config: a throw here is a crash
  const long long l_orig = c.original_max_position_embeddings();
  for (long long length : {1LL, l_orig}) pe_fuzz::check_frequencies(pe::scaled_frequencies(c, length), c);
  pe_fuzz::exercise_rope(c, std::min(l_orig + 1, pe::kMaxLength), static_cast<std::uint64_t>(size));
  for (const auto& e : m.positional) PE_FUZZ_CHECK(e.preview.size() <= 96 * 3, e.key);
  return 0;
}
