// A real trained model through the weights readers and the frequency-usage plumbing (issue
// 26): Karpathy's stories260K as a Hugging Face checkpoint (tests/data/stories260K, see its
// README). The expected numbers are computed here from the file's own bytes — the
// safetensors header parsed with nlohmann::json, the F32 values decoded by hand, each pair's
// rows picked by the half-split rule — and the GGUF the test writes from the same weights
// (rows permuted to llama.cpp's interleaved order) must measure the same. Also, without GL:
// the GUI's reading on a worker thread (progress, Cancel, reading again) and dropped paths.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "../unit/weights_test_writer.hpp"
#include "state/weights_usage.hpp"
#include "ui/weights_drop.hpp"

namespace {

using namespace pe_test;
namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kDir = fs::path(PE_SOURCE_DIR) / "tests" / "data" / "stories260K";
constexpr long long kDim = 64, kLayers = 5, kHeads = 8, kKv = 4, kHd = 8, kPairs = 4, kContext = 512;

std::vector<std::uint8_t> file_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The tensor's rows as doubles, read straight from the file: u64 header length, the JSON
// header, then little-endian F32 data at data_offsets.
Rows tensor_rows(const std::vector<std::uint8_t>& b, const std::string& name, long long rows, long long cols) {
  std::uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = n << 8 | b[static_cast<std::size_t>(i)];
  const json header = json::parse(std::string(b.begin() + 8, b.begin() + 8 + static_cast<std::ptrdiff_t>(n)));
  const json& t = header.at(name);
  EXPECT_EQ(t.at("dtype"), "F32") << name;
  EXPECT_EQ(t.at("shape"), json::array({rows, cols})) << name;
  const std::uint64_t begin = 8 + n + t.at("data_offsets")[0].get<std::uint64_t>();
  EXPECT_EQ(t.at("data_offsets")[1].get<std::uint64_t>() - t.at("data_offsets")[0].get<std::uint64_t>(),
            static_cast<std::uint64_t>(rows * cols * 4));
  Rows m(static_cast<std::size_t>(rows), std::vector<double>(static_cast<std::size_t>(cols)));
  for (long long r = 0; r < rows; ++r)
    for (long long c = 0; c < cols; ++c) {
      const std::size_t at = begin + static_cast<std::size_t>((r * cols + c) * 4);
      const std::uint32_t bits = std::uint32_t(b[at]) | std::uint32_t(b[at + 1]) << 8 | std::uint32_t(b[at + 2]) << 16 | std::uint32_t(b[at + 3]) << 24;
      m[r][c] = static_cast<double>(std::bit_cast<float>(bits));
    }
  return m;
}

struct Stories {
  std::vector<Rows> q, k;  // Hugging Face (half-split) row order, as stored
  Stories() {
    const auto b = file_bytes(kDir / "model.safetensors");
    for (long long l = 0; l < kLayers; ++l) {
      const std::string p = "model.layers." + std::to_string(l) + ".self_attn.";
      q.push_back(tensor_rows(b, p + "q_proj.weight", kHeads * kHd, kDim));
      k.push_back(tensor_rows(b, p + "k_proj.weight", kKv * kHd, kDim));
    }
  }
  double q_norm(long long l, long long h, long long j) const { return pair_norm(q[l], h * kHd + j, h * kHd + j + kHd / 2); }
  double k_norm(long long l, long long g, long long j) const { return pair_norm(k[l], g * kHd + j, g * kHd + j + kHd / 2); }
  double w(long long l, long long j) const {
    double s = 0;
    for (long long h = 0; h < kHeads; ++h) s += q_norm(l, h, j) * k_norm(l, h / 2, j);
    return s;
  }
  // llama.cpp's GGUF of it (convert_hf_to_gguf.py permutes Llama's q/k back to interleaved).
  Bytes gguf() const {
    GgufBuilder g;
    g.str("general.architecture", "llama").u32("llama.block_count", kLayers).u32("llama.context_length", kContext);
    g.u32("llama.embedding_length", kDim).u32("llama.attention.head_count", kHeads).u32("llama.attention.head_count_kv", kKv);
    g.u32("llama.rope.dimension_count", kHd).f32("llama.rope.freq_base", 10000.0f);
    for (long long l = 0; l < kLayers; ++l)
      for (const auto& [kind, rows, heads] : {std::tuple{"attn_q", &q[l], kHeads}, std::tuple{"attn_k", &k[l], kKv}}) {
        const Bytes b = encode(flat(hf_to_interleaved(*rows, heads)), "F32");
        g.tensor("blk." + std::to_string(l) + "." + kind + ".weight", {kDim, heads * kHd}, 0, b.size(), b);
      }
    return g.bytes();
  }
};

const Stories& stories() {
  static const Stories s;
  return s;
}

bool close(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b)); }

TEST(Stories260K, TheCheckpointIsTheConvertedOne) {
  ASSERT_TRUE(fs::exists(kDir / "model.safetensors")) << kDir;
  EXPECT_EQ(fs::file_size(kDir / "model.safetensors"), 1045064u);  // tests/data/stories260K/README.md
  const json config = json::parse(std::ifstream(kDir / "config.json"));
  EXPECT_EQ(config.at("hidden_size"), kDim);
  EXPECT_EQ(config.at("num_hidden_layers"), kLayers);
  EXPECT_EQ(config.at("num_attention_heads"), kHeads);
  EXPECT_EQ(config.at("num_key_value_heads"), kKv);
  EXPECT_EQ(config.at("head_dim"), kHd);
  EXPECT_EQ(config.at("max_position_embeddings"), kContext);
}

TEST(Stories260K, MeasuredNormsAreTheOnesComputedFromTheFile) {
  const app::WeightsUsage w = app::measure_weights(kDir.string());
  ASSERT_TRUE(w.ok()) << w.error;
  const pe::FrequencyUsage& u = w.usage;
  EXPECT_EQ(u.dtype, "f32");
  EXPECT_EQ(u.convention, "half-split");
  EXPECT_EQ(u.layers, kLayers);
  EXPECT_EQ(u.heads, kHeads);
  EXPECT_EQ(u.kv_heads, kKv);
  EXPECT_EQ(u.training_context, kContext);
  ASSERT_EQ(u.inv_freq.size(), kPairs);
  for (long long j = 0; j < kPairs; ++j) EXPECT_DOUBLE_EQ(u.inv_freq[j], std::pow(10.0, -double(j)));  // 10000^(−2j/8)
  EXPECT_EQ(u.bytes_read, static_cast<std::uint64_t>(kLayers * (kHeads + kKv) * kHd * kDim * 4));
  const Stories& s = stories();
  ASSERT_EQ(u.q_pair_norms.size(), std::size_t(kLayers));
  for (long long l = 0; l < kLayers; ++l) {
    ASSERT_EQ(u.q_pair_norms[l].rows(), kHeads);
    ASSERT_EQ(u.q_pair_norms[l].cols(), kPairs);
    ASSERT_EQ(u.k_pair_norms[l].rows(), kKv);
    for (long long h = 0; h < kHeads; ++h)
      for (long long j = 0; j < kPairs; ++j) EXPECT_PRED2(close, u.q_pair_norms[l](h, j), s.q_norm(l, h, j)) << l << " " << h << " " << j;
    for (long long g = 0; g < kKv; ++g)
      for (long long j = 0; j < kPairs; ++j) EXPECT_PRED2(close, u.k_pair_norms[l](g, j), s.k_norm(l, g, j)) << l << " " << g << " " << j;
    // The summary from the norms computed here: 4 pairs, one per outer quarter.
    const pe::LayerUsage& lu = w.summary[std::size_t(l)];
    double total = 0;
    for (long long j = 0; j < kPairs; ++j) total += s.w(l, j);
    EXPECT_PRED2(close, lu.share_fastest, s.w(l, 0) / total);
    EXPECT_PRED2(close, lu.share_slowest, s.w(l, 3) / total);
    // λ_j = 2π·10^j: 628 and 6283 exceed the 512 positions it was trained on.
    EXPECT_EQ(lu.pairs_beyond_context, (std::vector<long long>{2, 3}));
  }
}

TEST(Stories260K, TheGgufOfTheSameWeightsAndEveryThreadCountMeasureTheSame) {
  const app::WeightsUsage st = app::measure_weights(kDir.string(), {.threads = 1});
  ASSERT_TRUE(st.ok()) << st.error;
  const app::WeightsUsage two = app::measure_weights(kDir.string(), {.threads = 2});
  ASSERT_TRUE(two.ok()) << two.error;
  TempPath gguf("stories260K.gguf");
  write_bytes(gguf.path(), stories().gguf());
  const app::WeightsUsage g = app::measure_weights(gguf.path().string());
  ASSERT_TRUE(g.ok()) << g.error;
  EXPECT_EQ(g.usage.convention, "interleaved");
  EXPECT_TRUE((g.usage.inv_freq == st.usage.inv_freq).all());
  for (long long l = 0; l < kLayers; ++l) {
    EXPECT_TRUE((two.usage.q_pair_norms[l] == st.usage.q_pair_norms[l]).all()) << l;
    EXPECT_TRUE((two.usage.k_pair_norms[l] == st.usage.k_pair_norms[l]).all()) << l;
    for (long long h = 0; h < kHeads; ++h)
      for (long long j = 0; j < kPairs; ++j) EXPECT_DOUBLE_EQ(g.usage.q_pair_norms[l](h, j), st.usage.q_pair_norms[l](h, j));
    for (long long h = 0; h < kKv; ++h)
      for (long long j = 0; j < kPairs; ++j) EXPECT_DOUBLE_EQ(g.usage.k_pair_norms[l](h, j), st.usage.k_pair_norms[l](h, j));
  }
}

// ---- The GUI's reading, without GL ---------------------------------------------------------

// A bf16 checkpoint of `layers` Llama-3-8B-shaped layers whose tensors are sparse holes
// (zeros that take no disk): 40 MiB of q/k a layer to stream through.
fs::path sparse_model(const fs::path& dir, long long layers) {
  fs::create_directories(dir);
  constexpr std::uint64_t hidden = 4096, q_rows = 4096, k_rows = 1024;
  std::string header = "{";
  std::uint64_t at = 0;
  for (long long l = 0; l < layers; ++l)
    for (const auto& [name, rows] : {std::pair{"k_proj", k_rows}, std::pair{"q_proj", q_rows}}) {
      const std::uint64_t n = rows * hidden * 2;
      header += std::string(header.size() > 1 ? "," : "") + "\"model.layers." + std::to_string(l) + ".self_attn." + name +
                ".weight\":{\"dtype\":\"BF16\",\"shape\":[" + std::to_string(rows) + "," + std::to_string(hidden) +
                "],\"data_offsets\":[" + std::to_string(at) + "," + std::to_string(at + n) + "]}";
      at += n;
    }
  header += "}";
  while (header.size() % 8) header += ' ';
  Bytes head;
  put_u64(head, header.size());
  head.insert(head.end(), header.begin(), header.end());
  write_bytes(dir / "model.safetensors", head, head.size() + at);
  std::ofstream(dir / "config.json") << R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
    "num_key_value_heads": 8, "num_hidden_layers": )" << layers << R"(, "max_position_embeddings": 8192, "rope_theta": 500000.0})";
  return dir;
}

TEST(WeightsReading, RunsOnAWorkerWithProgressAndCancels) {
  TempPath dir("sparse-model");
  const std::string source = sparse_model(dir.path(), 24).string();  // ~1 GB of q/k
  app::forget_weights(source);
  app::WeightsStatus st = app::weights_status(source, false);
  ASSERT_TRUE(st.reading) << "the first frame must not wait for the whole model";
  EXPECT_EQ(st.result, nullptr);
  // Some progress, then Cancel: the reading stops at its next batch and says so.
  for (int i = 0; i < 2000 && st.reading && st.bytes_read == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    st = app::weights_status(source, false);
  }
  app::cancel_weights_reading();
  for (int i = 0; i < 20000 && st.reading; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    st = app::weights_status(source, false);
  }
  ASSERT_NE(st.result, nullptr);
  EXPECT_TRUE(st.result->cancelled);
  EXPECT_FALSE(st.result->ok());
  // Asked again, the result stays the cancelled one until it is forgotten (Read again).
  EXPECT_TRUE(app::weights_status(source, false).result->cancelled);
  app::forget_weights(source);
  const app::WeightsStatus again = app::weights_status(source, true);  // as an export waits
  ASSERT_NE(again.result, nullptr);
  EXPECT_TRUE(again.result->ok()) << again.result->error;
  EXPECT_EQ(again.result->usage.bytes_read, 24ull * (4096 + 1024) * 4096 * 2);
}

TEST(WeightsReading, AnotherSourceCancelsTheReadingUnderWay) {
  TempPath dir("sparse-model-2");
  const std::string big = sparse_model(dir.path(), 24).string();
  app::forget_weights(big);
  ASSERT_TRUE(app::weights_status(big, false).reading);
  const app::WeightsStatus small = app::weights_status(kDir.string(), true);
  ASSERT_NE(small.result, nullptr);
  EXPECT_TRUE(small.result->ok()) << small.result->error;
  EXPECT_EQ(small.result->usage.layers, kLayers);
}

TEST(WeightsReading, ErrorsNameTheFileAndTheTensor) {
  TempPath dir("bad-model");
  fs::create_directories(dir.path());
  SafetensorsWriter w;
  w.values("model.layers.0.self_attn.q_proj.weight", "F32", {8, 8}, std::vector<double>(64, 0.5));  // needs 64 × 64
  w.values("model.layers.0.self_attn.k_proj.weight", "F32", {32, 64}, std::vector<double>(32 * 64, 0.5));
  write_bytes(dir.path() / "model.safetensors", w.bytes());
  fs::copy_file(kDir / "config.json", dir.path() / "config.json");
  const app::WeightsStatus st = app::weights_status(dir.path().string(), true);
  ASSERT_NE(st.result, nullptr);
  EXPECT_FALSE(st.result->ok());
  EXPECT_NE(st.result->error.find((dir.path() / "model.safetensors").string()), std::string::npos) << st.result->error;
  EXPECT_NE(st.result->error.find("model.layers.0.self_attn.q_proj.weight"), std::string::npos) << st.result->error;
}

TEST(WeightsDrop, FoldersSafetensorsAndGgufOpenTheFrequencyUsageView) {
  app::AppState s = app::default_state();
  app::StatusLine status;
  ASSERT_TRUE(app::open_dropped_weights(s, kDir.string(), status, 1.0));
  EXPECT_EQ(s.weights, kDir.string());
  EXPECT_EQ(s.view, "frequency-usage");
  s = app::default_state();
  EXPECT_TRUE(app::open_dropped_weights(s, (kDir / "model.safetensors").string(), status, 1.0));
  EXPECT_EQ(s.weights, (kDir / "model.safetensors").string());
  // A .gguf is weights and a configuration: the view opens, and the caller loads its config too.
  s = app::default_state();
  EXPECT_FALSE(app::open_dropped_weights(s, "/somewhere/model.Q4_K_M.GGUF", status, 1.0));
  EXPECT_EQ(s.weights, "/somewhere/model.Q4_K_M.GGUF");
  EXPECT_EQ(s.view, "frequency-usage");
  // A config.json is not weights.
  s = app::default_state();
  const app::AppState before = s;
  EXPECT_FALSE(app::open_dropped_weights(s, (kDir / "config.json").string(), status, 1.0));
  EXPECT_EQ(s.weights, "");
  EXPECT_EQ(s.view, before.view);
}

}  // namespace
