// byte 0 → one of four small models (weights_test_models.hpp fuzz_model: GQA, partial rotary
// with a NoPE layer, GPT-NeoX, MLA); the rest → pe::parse_safetensors_header, then
// pe::SafetensorsCheckpoint and pe::measure_frequency_usage against that model. Refusal must
// be a WeightsError whose message starts with the file's name, or the model's when the
// tensors do not fit it (never another exception, a crash, a read past the input or a huge
// allocation). An accepted header must keep the format's promises (tensors tile the data
// section from 0 to the end of the input, sizes match shapes); an accepted read must give
// norm tables of the model's shape, never negative.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "../unit/weights_test_models.hpp"
#include "fuzz_common.hpp"
#include "pe/weights/frequency_usage.hpp"
#include "pe/weights/safetensors.hpp"
#include "pe/weights/safetensors_checkpoint.hpp"
#include "pe/weights/weights_error.hpp"

namespace {

const std::string kName = "fuzz.safetensors";

// Problems of the file name the file; a configuration the file's tensors cannot be read with
// (MLA tensors for a model without MLA dims, say) names the configuration.
void check_error(const pe::WeightsError& e, const std::string& config = "") {
  const std::string what = e.what();
  const bool names_file = what.rfind(kName + ": ", 0) == 0;
  const bool names_config = !config.empty() && what.rfind(config + ": ", 0) == 0;
  PE_FUZZ_CHECK(names_file || names_config, "message names neither the file nor the configuration: " + what);
  PE_FUZZ_CHECK(what.size() > kName.size() + 2, "empty message");
}

void check_header(const pe::SafetensorsHeader& h, std::size_t size) {
  PE_FUZZ_CHECK(h.file_size == size, "file_size");
  PE_FUZZ_CHECK(h.header_size <= pe::kSafetensorsMaxHeaderSize && 8 + h.header_size <= size, "header size");
  std::uint64_t at = 0;
  for (const auto& t : h.tensors) {
    PE_FUZZ_CHECK(t.begin == at && t.end >= t.begin, t.name + ": not tiled");
    PE_FUZZ_CHECK(t.elements() * static_cast<std::uint64_t>(pe::bit_size(t.dtype)) == 8 * (t.end - t.begin), t.name + ": size");
    PE_FUZZ_CHECK(h.find(t.name) == &t, t.name + ": index");
    at = t.end;
  }
  PE_FUZZ_CHECK(h.data_offset() + at == size, "the tensors do not end at the end of the input");
}

void check_usage(const pe::FrequencyUsage& u, const pe::WeightsModel& m) {
  const std::size_t n = u.layer_index.size();
  PE_FUZZ_CHECK(u.q_pair_norms.size() == n && u.k_pair_norms.size() == n && u.q_nonrotary_norms.size() == n, "per-layer sizes");
  for (std::size_t l = 0; l < n; ++l) {
    if (!u.layer_attention[l]) continue;
    PE_FUZZ_CHECK(u.q_pair_norms[l].rows() == m.shape.num_attention_heads, "q heads");
    PE_FUZZ_CHECK(u.q_pair_norms[l].cols() == u.k_pair_norms[l].cols(), "q and k pairs");
    PE_FUZZ_CHECK(u.layer_rotary[l] || u.q_pair_norms[l].cols() == 0, "pairs in a NoPE layer");
    for (const auto* a : {&u.q_pair_norms[l], &u.k_pair_norms[l]})
      for (Eigen::Index i = 0; i < a->size(); ++i) PE_FUZZ_CHECK(!(a->data()[i] < 0), "negative norm");
  }
  for (const auto& s : pe::summarize_usage(u))
    PE_FUZZ_CHECK(s.fastest_pairs + s.middle_pairs + s.slowest_pairs == s.qk.size(), "quarters");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const pe::WeightsModel model = pe_test::fuzz_model(data[0]);
  const std::span<const std::uint8_t> bytes(data + 1, size - 1);
  try {
    check_header(pe::parse_safetensors_header(bytes, kName), bytes.size());
  } catch (const pe::WeightsError& e) {
    check_error(e);
    return 0;
  }
  try {
    const auto c = pe::SafetensorsCheckpoint::single(pe::borrowed_source(bytes, kName));
    pe::WeightsReadOptions o;
    o.threads = 1;
    check_usage(pe::measure_frequency_usage(c, model, o), model);
  } catch (const pe::WeightsError& e) {
    check_error(e, model.source);
  }
  return 0;
}
