// bytes → pe::GgufWeights (the GGUF header and configuration over the input), the model its
// metadata describes (pe::gguf_weights_model) and pe::measure_frequency_usage; then the same
// bytes decoded as blocks of every format the reader decodes (ggml's and FP8). Refusal must be a
// WeightsError naming the file (never another exception, a crash, a read past the input —
// tensors past its end included — or a huge allocation); an accepted read must give norm
// tables of the file's own head counts, never negative.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "pe/weights/frequency_usage.hpp"
#include "pe/weights/ggml_blocks.hpp"
#include "pe/weights/gguf_weights.hpp"
#include "pe/weights/weights_error.hpp"

namespace {

const std::string kName = "fuzz.gguf";

void check_error(const pe::WeightsError& e) {
  const std::string what = e.what();
  // The model comes from the file's own metadata, so every message names the file.
  PE_FUZZ_CHECK(what.rfind(kName + ": ", 0) == 0, "message does not start with the file: " + what);
}

void decode_every_format(std::span<const std::uint8_t> bytes) {
  std::vector<float> out;
  using F = pe::StoredFormat;
  for (const auto f : {F::F32, F::F16, F::BF16, F::Q8_0, F::Q4_0, F::Q4_1, F::Q5_0, F::Q5_1, F::IQ4_NL, F::Q2_K, F::Q3_K, F::Q4_K,
                       F::Q5_K, F::Q6_K, F::IQ4_XS, F::F8_E4M3, F::F8_E5M2}) {
    const auto& info = pe::format_info(f);
    const std::size_t blocks = std::min<std::size_t>(bytes.size() / info.block_bytes, 64);
    out.assign(blocks * info.block_elements, 0.0f);
    if (blocks) pe::decode_blocks(f, bytes.data(), blocks, out.data());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  decode_every_format(bytes);
  try {
    const pe::GgufWeights w = pe::GgufWeights::from_source(pe::borrowed_source(bytes, kName));
    const pe::WeightsModel model = pe::gguf_weights_model(w.config());
    pe::WeightsReadOptions o;
    o.threads = 1;
    const pe::FrequencyUsage u = pe::measure_frequency_usage(w, model, o);
    PE_FUZZ_CHECK(u.bytes_read <= size * u.layer_index.size() * 2 + size, "read more than the input could hold");
    for (std::size_t l = 0; l < u.layer_index.size(); ++l) {
      if (!u.layer_attention[l]) continue;
      PE_FUZZ_CHECK(u.q_pair_norms[l].rows() == model.heads_of(u.layer_index[l]), "q heads");
      PE_FUZZ_CHECK(u.q_pair_norms[l].cols() == u.k_pair_norms[l].cols(), "q and k pairs");
      for (const auto* a : {&u.q_pair_norms[l], &u.k_pair_norms[l]})
        for (Eigen::Index i = 0; i < a->size(); ++i) PE_FUZZ_CHECK(!(a->data()[i] < 0), "negative norm");
    }
    for (const auto& s : pe::summarize_usage(u))
      PE_FUZZ_CHECK(s.fastest_pairs + s.middle_pairs + s.slowest_pairs == s.qk.size(), "quarters");
  } catch (const pe::WeightsError& e) {
    check_error(e);
  }
  return 0;
}
