// The fuzz_gguf seed corpus (tests/fuzz/corpus/fuzz_gguf/) is written by this test and
// committed: run it with PE_WRITE_GGUF_SEEDS=1 to regenerate the files. Without the
// variable it checks that the committed seeds are exactly what the builders produce and
// that each reads as intended — so the fuzzer starts from valid files of every kind.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>

#include "gguf_test_writer.hpp"
#include "pe/models/gguf_rope.hpp"

namespace {

using namespace pe_test;
namespace fs = std::filesystem;

struct Seed {
  std::string file;
  GgufBuilder builder;
  std::optional<pe::RopeType> scaling;  // nullopt: the header reads but maps to no config
};

std::vector<Seed> seeds() {
  std::vector<Seed> out;
  out.push_back({"llama31_header_only.gguf", llama31_builder(2), pe::RopeType::Llama3});
  {
    GgufBuilder g;
    g.str("general.architecture", "qwen2").u32("qwen2.context_length", 131072).u32("qwen2.embedding_length", 3584);
    g.u32("qwen2.attention.head_count", 28).f32("qwen2.rope.freq_base", 1000000.0f);
    g.str("qwen2.rope.scaling.type", "yarn").f32("qwen2.rope.scaling.factor", 4.0f);
    g.u32("qwen2.rope.scaling.original_context_length", 32768).f32("qwen2.rope.scaling.yarn_beta_fast", 32.0f);
    out.push_back({"qwen2_yarn.gguf", g, pe::RopeType::Yarn});
  }
  {
    std::vector<float> lf(48), sf(48);
    for (int i = 0; i < 48; ++i) {
      lf[static_cast<std::size_t>(i)] = 1.0f + 0.25f * static_cast<float>(i);
      sf[static_cast<std::size_t>(i)] = 1.0f + 0.02f * static_cast<float>(i);
    }
    GgufBuilder g;
    g.str("general.architecture", "phi3").u32("phi3.context_length", 131072).u32("phi3.embedding_length", 3072);
    g.u32("phi3.attention.head_count", 32).f32("phi3.rope.freq_base", 10000.0f).str("phi3.rope.scaling.type", "longrope");
    g.u32("phi3.rope.scaling.original_context_length", 4096).f32("phi3.rope.scaling.attn_factor", 1.1902381f);
    g.f32_tensor("rope_factors_long.weight", lf).f32_tensor("rope_factors_short.weight", sf);
    out.push_back({"phi3_longrope.gguf", g, pe::RopeType::LongRope});
  }
  {
    GgufBuilder g;
    g.str("general.architecture", "qwen2vl").u32("qwen2vl.context_length", 128000).u32("qwen2vl.embedding_length", 3584);
    g.u32("qwen2vl.attention.head_count", 28).f32("qwen2vl.rope.freq_base", 1000000.0f);
    g.arr_u32("qwen2vl.rope.dimension_sections", {16, 24, 24, 0});
    out.push_back({"qwen2vl_mrope.gguf", g, pe::RopeType::Default});
  }
  {
    GgufBuilder g;
    g.str("general.architecture", "deepseek2").u32("deepseek2.context_length", 163840).u32("deepseek2.embedding_length", 7168);
    g.u32("deepseek2.attention.head_count", 128).u32("deepseek2.attention.key_length", 192);
    g.u32("deepseek2.rope.dimension_count", 64).f32("deepseek2.rope.freq_base", 10000.0f);
    g.str("deepseek2.rope.scaling.type", "yarn").f32("deepseek2.rope.scaling.factor", 40.0f);
    g.u32("deepseek2.rope.scaling.original_context_length", 4096).f32("deepseek2.rope.scaling.yarn_log_multiplier", 0.1f);
    out.push_back({"deepseek2_yarn.gguf", g, pe::RopeType::Yarn});
  }
  {
    GgufBuilder g(2);
    g.str("general.architecture", "gptneox").u32("gptneox.context_length", 2048).u32("gptneox.embedding_length", 2560);
    g.u32("gptneox.attention.head_count", 32).u32("gptneox.rope.dimension_count", 20).f32("gptneox.rope.scale_linear", 2.0f);
    out.push_back({"gptneox_v2_linear.gguf", g, pe::RopeType::Linear});
  }
  {
    // Every value type, nested arrays, arrays of strings; no architecture.
    GgufBuilder g;
    g.scalar("t.u8", kU8, std::uint8_t{1}).scalar("t.i8", kI8, std::int8_t{-1}).scalar("t.u16", kU16, std::uint16_t{2});
    g.scalar("t.i16", kI16, std::int16_t{-2}).scalar("t.u32", kU32, std::uint32_t{3}).scalar("t.i32", kI32, std::int32_t{-3});
    g.scalar("t.f32", kF32, 0.5f).scalar("t.bool", kBool, std::uint8_t{1}).str("t.str", "text");
    g.scalar("t.u64", kU64, std::uint64_t{4}).scalar("t.i64", kI64, std::int64_t{-4}).scalar("t.f64", kF64, 0.25);
    g.arr_str("t.strs", {"a", "bc"}).arr_f32("t.f32s", {1.0f, 2.0f});
    Bytes nested;
    put_u32(nested, kArr);
    put_u64(nested, 1);
    put_u32(nested, kU8);
    put_u64(nested, 2);
    nested.insert(nested.end(), {7, 8});
    g.raw("t.nested", kArr, nested);
    out.push_back({"every_type.gguf", g, std::nullopt});
  }
  return out;
}

fs::path corpus_dir() { return fs::path(PE_SOURCE_DIR) / "tests" / "fuzz" / "corpus" / "fuzz_gguf"; }

Bytes read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(GgufSeeds, CommittedSeedsAreTheBuildersFilesAndReadAsIntended) {
  const bool write = std::getenv("PE_WRITE_GGUF_SEEDS") != nullptr;
  if (write) fs::create_directories(corpus_dir());
  for (const Seed& s : seeds()) {
    const Bytes b = s.builder.bytes();
    const fs::path p = corpus_dir() / s.file;
    if (write) write_bytes(p, b);
    ASSERT_TRUE(fs::exists(p)) << p << " missing: run with PE_WRITE_GGUF_SEEDS=1";
    EXPECT_EQ(read_all(p), b) << s.file << " differs from its builder: run with PE_WRITE_GGUF_SEEDS=1";
    EXPECT_LT(b.size(), 8192u) << s.file;
    if (s.scaling) {
      const pe::GgufModelConfig m = pe::load_gguf_config(p);
      EXPECT_EQ(m.loaded.config.scaling.type, *s.scaling) << s.file;
    } else {
      EXPECT_NO_THROW(pe::read_gguf(p)) << s.file;
      EXPECT_THROW(pe::load_gguf_config(p), pe::GgufError) << s.file;
    }
  }
}

}  // namespace
