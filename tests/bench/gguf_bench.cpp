// Opening a GGUF file whose header declares ~40 GB of tensors (target: < 50 ms). The
// header is Llama-3.1-shaped with 40 blocks of f32 weights and a real-sized tokenizer
// (128256 tokens + token types + 280147 merges, ~8 MB of metadata, as Meta-Llama-3.1-8B
// GGUFs carry). Two files: header + rope_freqs only (the weights' region lies past the
// end), and the same extended to the full declared size as a sparse file.
//   BM_GgufReadHeader/0   read_gguf, short file        BM_GgufReadHeader/1   sparse 40 GB file
//   BM_GgufLoadConfig/0,1 load_gguf_config (header, mapping, rope_freqs read from its offset)
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>
#include <unistd.h>

#include "../unit/gguf_test_writer.hpp"
#include "pe/models/gguf.hpp"
#include "pe/models/gguf_rope.hpp"

namespace {

namespace fs = std::filesystem;

struct BenchFiles {
  fs::path short_file, sparse_file;
  std::uint64_t declared = 0, header = 0;
  bool sparse_ok = false;
  BenchFiles() {
    pe_test::GgufBuilder g = pe_test::llama31_builder(40, 128256, 0 /* f32 */);
    std::vector<std::string> merges;
    merges.reserve(280147);
    for (int k = 0; k < 280147; ++k) merges.push_back("Ġ" + std::to_string(k % 977) + " t" + std::to_string(k));
    g.arr_str("tokenizer.ggml.merges", merges);
    const pe_test::Bytes b = g.bytes();
    header = g.header_end();
    declared = g.data_offset() + g.declared_data_size();
    const fs::path dir = fs::temp_directory_path();
    short_file = dir / ("pe-gguf-bench-short-" + std::to_string(::getpid()) + ".gguf");
    sparse_file = dir / ("pe-gguf-bench-sparse-" + std::to_string(::getpid()) + ".gguf");
    pe_test::write_bytes(short_file, b);
    try {
      pe_test::write_bytes(sparse_file, b, declared);
      sparse_ok = true;
    } catch (const std::exception&) {
      sparse_ok = false;  // a filesystem without sparse files this large
    }
  }
  ~BenchFiles() {
    std::error_code ec;
    fs::remove(short_file, ec);
    fs::remove(sparse_file, ec);
  }
};

BenchFiles& files() {
  static BenchFiles f;
  return f;
}

const fs::path* pick(benchmark::State& state) {
  BenchFiles& f = files();
  if (state.range(0) == 1 && !f.sparse_ok) {
    state.SkipWithError("cannot create a sparse file of the declared size here");
    return nullptr;
  }
  state.counters["declared_GB"] = static_cast<double>(f.declared) / 1e9;
  state.counters["header_MB"] = static_cast<double>(f.header) / 1e6;
  return state.range(0) == 1 ? &f.sparse_file : &f.short_file;
}

void BM_GgufReadHeader(benchmark::State& state) {
  const fs::path* p = pick(state);
  if (!p) return;
  for (auto _ : state) {
    pe::GgufFile file = pe::read_gguf(*p);
    benchmark::DoNotOptimize(file.tensors.data());
  }
}
BENCHMARK(BM_GgufReadHeader)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_GgufLoadConfig(benchmark::State& state) {
  const fs::path* p = pick(state);
  if (!p) return;
  for (auto _ : state) {
    pe::GgufModelConfig m = pe::load_gguf_config(*p);
    benchmark::DoNotOptimize(m.loaded.config.theta);
  }
}
BENCHMARK(BM_GgufLoadConfig)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
