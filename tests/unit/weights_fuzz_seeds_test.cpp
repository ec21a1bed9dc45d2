// The weights fuzzers' seed corpora (tests/fuzz/corpus/fuzz_safetensors/, fuzz_gguf_tensors/)
// are the files weights_test_models.hpp writes, and each is read to the end — so the seeds
// start the fuzzers on every family and format, not on inputs refused at the first byte.
// Regenerate them after changing the writers with
//   PE_WRITE_FUZZ_SEEDS=1 build/tests/unit/weights_fuzz_seeds_test
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

#include "pe/weights/frequency_usage.hpp"
#include "pe/weights/gguf_weights.hpp"
#include "pe/weights/safetensors_checkpoint.hpp"
#include "weights_test_models.hpp"

namespace {

namespace fs = std::filesystem;

pe_test::Bytes read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return pe_test::Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(WeightsFuzzSeeds, CorporaAreTheWritersFilesAndReadToTheEnd) {
  const fs::path corpus = fs::path(PE_SOURCE_DIR) / "tests" / "fuzz" / "corpus";
  const bool write = std::getenv("PE_WRITE_FUZZ_SEEDS") != nullptr;
  for (const auto& [folder, name, bytes] : pe_test::fuzz_seeds()) {
    SCOPED_TRACE(folder + "/" + name);
    const fs::path path = corpus / folder / name;
    if (write) {
      fs::create_directories(path.parent_path());
      pe_test::write_bytes(path, bytes);
    }
    ASSERT_TRUE(fs::exists(path)) << "missing seed; regenerate with PE_WRITE_FUZZ_SEEDS=1";
    EXPECT_EQ(read_file(path), bytes) << "seed differs from what the writer writes now; regenerate with PE_WRITE_FUZZ_SEEDS=1";
    pe::FrequencyUsage u;
    if (folder == "fuzz_safetensors") {
      const auto source = pe::borrowed_source(std::span(bytes).subspan(1), "seed.safetensors");
      const auto c = pe::SafetensorsCheckpoint::single(source);
      if (c.tensor_names().empty()) continue;  // the header-only seed
      ASSERT_NO_THROW(u = pe::measure_frequency_usage(c, pe_test::fuzz_model(bytes[0])));
    } else {
      const auto w = pe::GgufWeights::from_source(pe::borrowed_source(bytes, name));
      ASSERT_NO_THROW(u = pe::measure_frequency_usage(w, pe::gguf_weights_model(w.config())));
    }
    EXPECT_GT(u.bytes_read, 0u);
    EXPECT_FALSE(u.q_pair_norms.empty());
  }
}

}  // namespace
