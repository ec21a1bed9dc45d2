// Ranged files (pe/weights/ranged_file.hpp) and reading through them (ranged_reading.hpp,
// ranged_weights.hpp): what is loaded is exactly what the protocol says — a safetensors
// header's first 100001 bytes and the rest only when longer, headers over 25 MB refused, every
// shard's header at once, then only the q/k rows — and the numbers are the same as reading the
// whole file from memory (each compared with ==: the same rows summed in the same order).
#include <gtest/gtest.h>

#include <random>

#include "gguf_test_writer.hpp"
#include "pe/weights/frequency_usage.hpp"
#include "pe/weights/gguf_weights.hpp"
#include "pe/weights/open_weights.hpp"
#include "pe/weights/ranged_reading.hpp"
#include "pe/weights/ranged_weights.hpp"
#include "pe/weights/safetensors_checkpoint.hpp"
#include "pe/weights/weights_error.hpp"
#include "ranged_test_loader.hpp"
#include "weights_test_writer.hpp"

namespace {

using namespace pe_test;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// A Llama-shaped model: hidden 64, 4 query heads, 2 key/value heads of 16 dims, 3 layers.
constexpr long long kHidden = 64, kHeads = 4, kKv = 2, kHd = 16, kLayers = 3;
const std::string kConfig = R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 64,
  "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "num_hidden_layers": 3,
  "max_position_embeddings": 256, "rope_theta": 10000.0})";

// The checkpoint's tensors (names sorted as the Rust writer sorts them: k_proj, o_proj,
// q_proj, v_proj per layer, so q and k are not adjacent), split over `shards` files.
std::vector<SafetensorsWriter> llama_shards(int shards, std::size_t metadata_bytes = 0) {
  std::mt19937 rng(11);
  std::vector<SafetensorsWriter> out(static_cast<std::size_t>(shards));
  for (long long l = 0; l < kLayers; ++l) {
    SafetensorsWriter& w = out[static_cast<std::size_t>(l % shards)];
    const std::string p = "model.layers." + std::to_string(l) + ".self_attn.";
    w.values(p + "q_proj.weight", "BF16", {kHeads * kHd, kHidden}, flat(random_rows(kHeads * kHd, kHidden, rng)));
    w.values(p + "k_proj.weight", "BF16", {kKv * kHd, kHidden}, flat(random_rows(kKv * kHd, kHidden, rng)));
    w.values(p + "v_proj.weight", "BF16", {kKv * kHd, kHidden}, flat(random_rows(kKv * kHd, kHidden, rng)));
    w.values(p + "o_proj.weight", "BF16", {kHidden, kHeads * kHd}, flat(random_rows(kHidden, kHeads * kHd, rng)));
  }
  if (metadata_bytes) out[0].metadata("padding", std::string(metadata_bytes, 'x'));
  for (auto& w : out) w.metadata("format", "pt");
  return out;
}

pe::FrequencyUsage measured_in_memory(const std::vector<std::uint8_t>& file) {
  const pe::OpenedWeights w = pe::open_hf_weights(pe::SafetensorsCheckpoint::single(pe::memory_source(file, "model.safetensors")), kConfig);
  return pe::measure_frequency_usage(*w.tensors, w.model);
}

void expect_same(const pe::FrequencyUsage& a, const pe::FrequencyUsage& b) {
  ASSERT_EQ(a.layer_index, b.layer_index);
  for (std::size_t l = 0; l < a.layer_index.size(); ++l) {
    EXPECT_TRUE((a.q_pair_norms[l] == b.q_pair_norms[l]).all()) << "layer " << l;
    EXPECT_TRUE((a.k_pair_norms[l] == b.k_pair_norms[l]).all()) << "layer " << l;
  }
  EXPECT_EQ(a.bytes_read, b.bytes_read);
}

// Reads to the end, pumping the loader as a page's frames would (wait 0).
pe::FrequencyUsage read_all(pe::RangedWeightsOpening opening, MemoryRangeLoader& loader, const pe::WeightsReadOptions& options = {},
                            std::uint64_t* peak = nullptr) {
  int steps = 0;
  while (!opening.advance(loader, 0)) ASSERT_LT(++steps, 1000), pe::FrequencyUsage{};
  pe::OpenedWeights w = opening.take();
  pe::RangedFrequencyReading r(pe::FrequencyUsageReading(*w.tensors, w.model, options), loader);
  while (!r.advance(0)) EXPECT_LT(++steps, 100000);
  if (peak) *peak = r.peak_resident_bytes();
  return r.take();
}

std::uint64_t qk_bytes() { return kLayers * (kHeads + kKv) * kHd * kHidden * 2; }

TEST(RangedFile, ReadsOnlyWhatIsLoadedAndJoinsTouchingRanges) {
  const auto f = pe::RangedFile::make("f.bin", "f.bin", 100);
  f->add(10, std::vector<std::uint8_t>(10, 1));
  f->add(20, std::vector<std::uint8_t>(5, 2));
  EXPECT_EQ(f->read(12, 4)[0], 1);
  EXPECT_EQ(f->missing({0, 30}), (std::vector<pe::ByteRange>{{0, 10}, {25, 5}}));
  const auto joined = f->read(18, 4);  // across the two chunks: joined
  EXPECT_EQ(std::vector<std::uint8_t>(joined.begin(), joined.end()), (std::vector<std::uint8_t>{1, 1, 2, 2}));
  try {
    f->read(24, 3);
    FAIL() << "read past what is loaded";
  } catch (const pe::BytesNotLoaded& e) {
    EXPECT_EQ(e.range(), (pe::ByteRange{24, 3}));
    EXPECT_EQ(e.file().get(), f.get());
  }
  EXPECT_THROW(f->read(99, 2), pe::WeightsError);  // past the end of the file
  f->done_reading(10, 15);
  EXPECT_EQ(f->resident_bytes(), 0u);
}

TEST(RangedFile, MergesRangesWithinTheGap) {
  EXPECT_EQ(pe::merged_ranges({{100, 10}, {0, 10}, {10, 5}, {200, 1}}), (std::vector<pe::ByteRange>{{0, 15}, {100, 10}, {200, 1}}));
  EXPECT_EQ(pe::merged_ranges({{0, 10}, {14, 6}, {40, 1}}, 4), (std::vector<pe::ByteRange>{{0, 20}, {40, 1}}));
}

TEST(RangedWeights, SingleFileLoadsTheFirst100001BytesThenOnlyTheQkRows) {
  const std::vector<std::uint8_t> file = llama_shards(1, 150'000)[0].bytes();  // a header longer than 100000 bytes
  const std::uint64_t header_end = 8 + pe::safetensors_header_length(file);
  ASSERT_GT(header_end, pe::kSafetensorsFirstRead);
  MemoryRangeLoader loader;
  loader.put("model.safetensors", file);
  const pe::FrequencyUsage u = read_all(pe::RangedWeightsOpening::safetensors(kConfig, "config.json", loader.file("model.safetensors")), loader);
  expect_same(u, measured_in_memory(file));
  ASSERT_GE(loader.requests.size(), 2u);
  EXPECT_EQ(loader.requests[0].range, (pe::ByteRange{0, pe::kSafetensorsFirstRead}));
  EXPECT_EQ(loader.requests[1].range, (pe::ByteRange{pe::kSafetensorsFirstRead, header_end - pe::kSafetensorsFirstRead}));
  // Then q and k of each layer: the q/k bytes exactly, nothing of v or o.
  std::uint64_t data = 0;
  for (std::size_t k = 2; k < loader.requests.size(); ++k) {
    EXPECT_GE(loader.requests[k].range.offset, header_end);
    data += loader.requests[k].range.length;
  }
  EXPECT_EQ(data, qk_bytes());
  EXPECT_EQ(loader.bytes_moved(), header_end + qk_bytes());
}

TEST(RangedWeights, ShortHeaderIsOneRequest) {
  const std::vector<std::uint8_t> file = llama_shards(1)[0].bytes();
  MemoryRangeLoader loader;
  loader.put("m.safetensors", file);
  read_all(pe::RangedWeightsOpening::safetensors(kConfig, "config.json", loader.file("m.safetensors")), loader);
  // 0-100000, cut to the file (smaller here): the q/k rows came with it.
  ASSERT_EQ(loader.requests.size(), 1u);
  EXPECT_EQ(loader.requests[0].range, (pe::ByteRange{0, file.size()}));
}

TEST(RangedWeights, HeadersOver25MBAreRefusedAfterOneRequest) {
  std::vector<std::uint8_t> file(200'000, ' ');
  const std::uint64_t n = pe::kSafetensorsRemoteMaxHeaderSize + 1;
  for (int k = 0; k < 8; ++k) file[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(n >> (8 * k));
  MemoryRangeLoader loader;
  loader.put("big.safetensors", file);
  try {
    read_all(pe::RangedWeightsOpening::safetensors(kConfig, "config.json", loader.file("big.safetensors")), loader);
    FAIL() << "a 25 MB header was read";
  } catch (const pe::WeightsError& e) {
    EXPECT_TRUE(contains(e.what(), "25000001 bytes, over the limit of 25000000")) << e.what();
    EXPECT_TRUE(contains(e.what(), "huggingface_hub")) << e.what();
  }
  EXPECT_EQ(loader.requests.size(), 1u);
}

TEST(RangedWeights, ShardedLoadsEveryHeaderAtOnceAndMeasuresAsInMemory) {
  const auto shards = llama_shards(2);
  std::string index = R"({"metadata": {}, "weight_map": {)";
  for (long long l = 0; l < kLayers; ++l)
    for (const char* t : {"q_proj", "k_proj", "v_proj", "o_proj"})
      index += std::string(l || std::string(t) != "q_proj" ? "," : "") + "\"model.layers." + std::to_string(l) + ".self_attn." + t +
               ".weight\": \"model-0000" + std::to_string(1 + l % 2) + "-of-00002.safetensors\"";
  index += "}}";
  MemoryRangeLoader loader;
  loader.delay_pumps = 1;
  loader.put("model-00001-of-00002.safetensors", shards[0].bytes());
  loader.put("model-00002-of-00002.safetensors", shards[1].bytes());
  auto opening = pe::RangedWeightsOpening::sharded(kConfig, "config.json", index, "model.safetensors.index.json",
                                                   [&](const std::string& s) { return loader.file(s, false); });
  EXPECT_FALSE(opening.advance(loader, 0));
  EXPECT_EQ(loader.requests.size(), 2u);  // both headers asked for before either arrived
  const pe::FrequencyUsage u = read_all(std::move(opening), loader);
  // The same tensors in one file give the same numbers.
  SafetensorsWriter all;
  {
    std::mt19937 rng(11);
    for (long long l = 0; l < kLayers; ++l) {
      const std::string p = "model.layers." + std::to_string(l) + ".self_attn.";
      all.values(p + "q_proj.weight", "BF16", {kHeads * kHd, kHidden}, flat(random_rows(kHeads * kHd, kHidden, rng)));
      all.values(p + "k_proj.weight", "BF16", {kKv * kHd, kHidden}, flat(random_rows(kKv * kHd, kHidden, rng)));
      random_rows(kKv * kHd, kHidden, rng), random_rows(kHidden, kHeads * kHd, rng);
    }
  }
  expect_same(u, measured_in_memory(all.bytes()));
}

TEST(RangedWeights, MemoryStaysAtAboutTwoBatches) {
  const std::vector<std::uint8_t> file = llama_shards(1, 150'000)[0].bytes();  // the header is loaded alone
  const std::uint64_t header_end = 8 + pe::safetensors_header_length(file);
  MemoryRangeLoader loader;
  loader.put("m.safetensors", file);
  pe::WeightsReadOptions o;
  o.batch_bytes = 4096;  // a layer's q/k is 12 KiB: three batches per layer
  std::uint64_t peak = 0;
  const pe::FrequencyUsage u = read_all(pe::RangedWeightsOpening::safetensors(kConfig, "config.json", loader.file("m.safetensors")), loader,
                                        o, &peak);
  expect_same(u, measured_in_memory(file));
  EXPECT_LE(peak, header_end + 2 * 4096);  // the header and two batches
  EXPECT_GE(peak, header_end + 4096);
}

TEST(RangedWeights, GgufHeaderGrowsUntilItFits) {
  // A GGUF whose metadata (a long string) is over 2 MiB: loads of 1, 2 and 4 MiB.
  pe_test::GgufBuilder g;
  g.str("general.architecture", "llama").u32("llama.block_count", 1).u32("llama.context_length", 64);
  g.u32("llama.embedding_length", 32).u32("llama.attention.head_count", 2).u32("llama.attention.head_count_kv", 1);  // head_dim 16
  g.u32("llama.rope.dimension_count", 4).f32("llama.rope.freq_base", 10000.0f).str("general.description", std::string(2'500'000, 'd'));
  std::mt19937 rng(3);
  const auto q = encode(flat(random_rows(32, 32, rng)), "F32"), k = encode(flat(random_rows(16, 32, rng)), "F32");
  g.tensor("blk.0.attn_q.weight", {32, 32}, 0, q.size(), q).tensor("blk.0.attn_k.weight", {32, 16}, 0, k.size(), k);
  const auto bytes = g.bytes();
  MemoryRangeLoader loader;
  loader.put("m.gguf", bytes);
  const pe::FrequencyUsage u = read_all(pe::RangedWeightsOpening::gguf(loader.file("m.gguf")), loader);
  const pe::OpenedWeights whole = pe::open_gguf_weights(pe::memory_source(bytes, "m.gguf"));
  expect_same(u, pe::measure_frequency_usage(*whole.tensors, whole.model));
  // 1 MiB first; the string's kept 1 MiB; the skipped rest of it (about 1.5 MB) never loaded.
  ASSERT_GE(loader.requests.size(), 2u);
  EXPECT_LE(loader.requests.size(), 4u);
  EXPECT_EQ(loader.requests[0].range, (pe::ByteRange{0, 1u << 20}));
  EXPECT_LT(loader.bytes_moved(), bytes.size() - 1'400'000);
}

}  // namespace
