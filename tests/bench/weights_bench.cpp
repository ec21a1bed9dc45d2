// Reading q/k weights (issue 26: at least 1 GB/s of q/k bytes from the page cache on the
// 2-core machine; memory under 2× one layer's q/k bytes beyond the mapping).
//
// The checkpoint is Llama-3.1-8B-shaped bf16 safetensors written once per run to the temp
// folder: per layer q_proj [4096, 4096] and k_proj [1024, 4096] with data (40 MiB of q/k a
// layer), and v_proj, o_proj and the MLP as sparse holes, so the file is as large as the real
// one (1.9 GB of tensors a layer of which 2 % are q/k) without being written. The default is
// 8 layers (320 MiB of q/k); PE_WEIGHTS_BENCH_LAYERS=32 gives the full 8B model (1.25 GiB of
// q/k in a 60 GB file). After writing, the q/k pages sit in the page cache, which is what is
// measured.
//   BM_WeightsReadBf16/1, /2   measure_frequency_usage with 1 and 2 threads
//   BM_WeightsReadQ4K/1, /2    the same model's q/k as GGUF q4_K blocks (4 layers)
//   BM_WeightsReadGguf/TYPE/1, /2   the same for the other ggml types (q8_0 … iq4_xs; 4 layers)
//   BM_WeightsReadFp8/E4M3/1, /2, …/E5M2/…   the model as an FP8 checkpoint with 128 × 128 F32
//                              block scales, as DeepSeek-V3 ships (8 layers, a byte a weight)
// Counters: qk_GB_per_s (q/k bytes per second, 10^9), extra_anon_MiB (the largest growth of
// the process's anonymous memory seen during the read, sampled at every progress callback),
// resident_file_MiB (the largest part of the mapping resident at once), layer_qk_MiB.
#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <string>

#include "../unit/weights_test_writer.hpp"
#include "pe/weights/frequency_usage.hpp"
#include "pe/weights/gguf_weights.hpp"
#include "pe/weights/safetensors_checkpoint.hpp"

namespace {

namespace fs = std::filesystem;
constexpr std::uint64_t kHidden = 4096, kQRows = 4096, kKRows = 1024, kFfn = 14336;

long long bench_layers(long long fallback) {
  const char* v = std::getenv("PE_WEIGHTS_BENCH_LAYERS");
  const long long n = v ? std::atoll(v) : fallback;
  return std::clamp<long long>(n, 1, 128);
}

// Kilobytes of a /proc/self/status field ("RssAnon:", "RssFile:").
long long status_kib(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(field, 0) == 0) return std::atoll(line.c_str() + std::strlen(field));
  return 0;
}

pe::WeightsModel llama8b_model(long long layers) {
  pe::WeightsModel m;
  m.source = "synthetic Llama-3.1-8B shape";
  m.shape.num_hidden_layers = layers;
  m.shape.num_attention_heads = 32;
  m.shape.num_key_value_heads = 8;
  m.shape.head_dim = 128;
  m.shape.hidden_size = static_cast<long long>(kHidden);
  m.rope.theta = 500000.0;
  m.rope.head_dim = 128;
  m.rope.max_position_embeddings = 8192;
  return m;
}

// Writes `bytes` at `offset` (the rest of the file stays a hole).
void put_at(int fd, std::uint64_t offset, const pe_test::Bytes& bytes) {
  std::uint64_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::pwrite(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
    if (n <= 0) throw std::runtime_error("pwrite failed");
    done += static_cast<std::uint64_t>(n);
  }
}

struct Bf16File {
  fs::path path;
  long long layers = 0;
  std::uint64_t qk_bytes = 0;
  Bf16File() {
    layers = bench_layers(8);
    path = fs::temp_directory_path() / ("pe-weights-bench-" + std::to_string(::getpid()) + ".safetensors");
    // The header, by hand (names sorted as the writer sorts them, offsets back to back).
    struct T {
      std::string name;
      std::uint64_t rows, cols;
      bool data;
    };
    std::vector<T> ts;
    for (long long l = 0; l < layers; ++l) {
      const std::string p = "model.layers." + std::to_string(l) + ".";
      ts.push_back({p + "mlp.down_proj.weight", kHidden, kFfn, false});
      ts.push_back({p + "mlp.gate_proj.weight", kFfn, kHidden, false});
      ts.push_back({p + "mlp.up_proj.weight", kFfn, kHidden, false});
      ts.push_back({p + "self_attn.k_proj.weight", kKRows, kHidden, true});
      ts.push_back({p + "self_attn.o_proj.weight", kHidden, kHidden, false});
      ts.push_back({p + "self_attn.q_proj.weight", kQRows, kHidden, true});
      ts.push_back({p + "self_attn.v_proj.weight", kKRows, kHidden, false});
    }
    std::string header = "{";
    std::uint64_t at = 0;
    std::vector<std::uint64_t> offsets;
    for (const auto& t : ts) {
      const std::uint64_t n = t.rows * t.cols * 2;
      header += std::string(header.size() > 1 ? "," : "") + "\"" + t.name + "\":{\"dtype\":\"BF16\",\"shape\":[" + std::to_string(t.rows) +
                "," + std::to_string(t.cols) + "],\"data_offsets\":[" + std::to_string(at) + "," + std::to_string(at + n) + "]}";
      offsets.push_back(at);
      at += n;
    }
    header += "}";
    while (header.size() % 8) header += ' ';
    pe_test::Bytes head;
    pe_test::put_u64(head, header.size());
    head.insert(head.end(), header.begin(), header.end());
    const std::uint64_t data = head.size();
    // One q-sized buffer of bf16 values 2^-8 ... about 1 (never subnormal or NaN).
    pe_test::Bytes q(kQRows * kHidden * 2);
    for (std::size_t k = 0; k < q.size(); k += 2) {
      const std::uint16_t v = static_cast<std::uint16_t>(0x3B80 + (k / 2 * 2654435761u >> 20) % 0x400);
      q[k] = static_cast<std::uint8_t>(v & 255);
      q[k + 1] = static_cast<std::uint8_t>(v >> 8);
    }
    const pe_test::Bytes k(q.begin(), q.begin() + static_cast<std::ptrdiff_t>(kKRows * kHidden * 2));
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) throw std::runtime_error("cannot create " + path.string());
    put_at(fd, 0, head);
    for (std::size_t i = 0; i < ts.size(); ++i)
      if (ts[i].data) put_at(fd, data + offsets[i], ts[i].rows == kQRows ? q : k);
    if (::ftruncate(fd, static_cast<off_t>(data + at)) != 0) throw std::runtime_error("cannot extend " + path.string());
    ::close(fd);
    qk_bytes = static_cast<std::uint64_t>(layers) * (kQRows + kKRows) * kHidden * 2;
  }
  ~Bf16File() {
    std::error_code ec;
    fs::remove(path, ec);
  }
};

// The q/k of `layers` Llama-3.1-8B layers as GGUF tensors of one ggml type: one row of random
// blocks, repeated (decoding cost does not depend on the values).
struct GgufFile {
  fs::path path;
  long long layers = 0;
  std::uint64_t qk_bytes = 0;
  explicit GgufFile(const std::string& type) {
    layers = std::min<long long>(bench_layers(8), 4);
    path = fs::temp_directory_path() / ("pe-weights-bench-" + std::to_string(::getpid()) + "-" + type + ".gguf");
    std::mt19937 rng(1);
    const pe_test::GgmlType& t = pe_test::ggml_type(type);
    pe_test::Bytes row;
    for (std::uint64_t b = 0; b < kHidden / static_cast<std::uint64_t>(t.block_elements); ++b) {
      const pe_test::Block blk = pe_test::random_block(type, rng);
      row.insert(row.end(), blk.bytes.begin(), blk.bytes.end());
    }
    pe_test::GgufBuilder g;
    g.str("general.architecture", "llama").u32("llama.block_count", static_cast<std::uint32_t>(layers)).u32("llama.context_length", 8192);
    g.u32("llama.embedding_length", kHidden).u32("llama.attention.head_count", 32).u32("llama.attention.head_count_kv", 8);
    g.f32("llama.rope.freq_base", 500000.0f);
    for (long long l = 0; l < layers; ++l)
      for (const auto& [kind, rows] : {std::pair{"attn_q", kQRows}, std::pair{"attn_k", kKRows}}) {
        pe_test::Bytes data;
        for (std::uint64_t r = 0; r < rows; ++r) data.insert(data.end(), row.begin(), row.end());
        g.tensor("blk." + std::to_string(l) + "." + kind + ".weight", {static_cast<std::int64_t>(kHidden), static_cast<std::int64_t>(rows)},
                 t.id, data.size(), data);
        qk_bytes += data.size();
      }
    pe_test::write_bytes(path, g.bytes());
  }
  ~GgufFile() {
    std::error_code ec;
    fs::remove(path, ec);
  }
};

struct Q4KFile : GgufFile {
  Q4KFile() : GgufFile("q4_K") {}
};

// The q/k of `layers` Llama-3.1-8B layers in FP8 with their F32 …weight_scale_inv (32 × 32
// blocks of 128 × 128 for q, 8 × 32 for k), the rest of each layer a hole, as Bf16File.
struct Fp8File {
  fs::path path;
  long long layers = 0;
  std::uint64_t qk_bytes = 0;
  explicit Fp8File(bool e4m3) {
    layers = bench_layers(8);
    path = fs::temp_directory_path() / ("pe-weights-bench-" + std::to_string(::getpid()) + (e4m3 ? "-e4m3" : "-e5m2") + ".safetensors");
    const std::string dtype = e4m3 ? "F8_E4M3" : "F8_E5M2";
    struct T {
      std::string name, dtype;
      std::uint64_t rows, cols, element_bytes;
      char data;  // 'w' a weight with data, 's' its scales, 0 a hole
    };
    std::vector<T> ts;
    for (long long l = 0; l < layers; ++l) {
      const std::string p = "model.layers." + std::to_string(l) + ".";
      ts.push_back({p + "mlp.down_proj.weight", dtype, kHidden, kFfn, 1, 0});
      ts.push_back({p + "self_attn.k_proj.weight", dtype, kKRows, kHidden, 1, 'w'});
      ts.push_back({p + "self_attn.k_proj.weight_scale_inv", "F32", kKRows / 128, kHidden / 128, 4, 's'});
      ts.push_back({p + "self_attn.q_proj.weight", dtype, kQRows, kHidden, 1, 'w'});
      ts.push_back({p + "self_attn.q_proj.weight_scale_inv", "F32", kQRows / 128, kHidden / 128, 4, 's'});
      ts.push_back({p + "self_attn.v_proj.weight", dtype, kKRows, kHidden, 1, 0});
    }
    std::string header = "{";
    std::uint64_t at = 0;
    std::vector<std::uint64_t> offsets;
    for (const auto& t : ts) {
      const std::uint64_t n = t.rows * t.cols * t.element_bytes;
      header += std::string(header.size() > 1 ? "," : "") + "\"" + t.name + "\":{\"dtype\":\"" + t.dtype + "\",\"shape\":[" +
                std::to_string(t.rows) + "," + std::to_string(t.cols) + "],\"data_offsets\":[" + std::to_string(at) + "," +
                std::to_string(at + n) + "]}";
      offsets.push_back(at);
      at += n;
    }
    header += "}";
    while (header.size() % 8) header += ' ';
    pe_test::Bytes head;
    pe_test::put_u64(head, header.size());
    head.insert(head.end(), header.begin(), header.end());
    const std::uint64_t data = head.size();
    // Finite codes of magnitude about 2^-4 ... 2^3, and scales 2^-8 ... 2^-1.
    pe_test::Bytes q(kQRows * kHidden);
    for (std::size_t k = 0; k < q.size(); ++k) {
      const std::uint32_t h = static_cast<std::uint32_t>(k) * 2654435761u;
      q[k] = static_cast<std::uint8_t>((h >> 31) << 7 | (e4m3 ? (3 + (h >> 20) % 8) << 3 | (h >> 8) % 8 : (11 + (h >> 20) % 8) << 2 | (h >> 8) % 4));
    }
    pe_test::Bytes scales;
    for (std::uint64_t k = 0; k < (kQRows / 128) * (kHidden / 128); ++k) pe_test::put_f32(scales, std::ldexp(1.0f, -1 - static_cast<int>(k % 8)));
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) throw std::runtime_error("cannot create " + path.string());
    put_at(fd, 0, head);
    for (std::size_t i = 0; i < ts.size(); ++i) {
      if (!ts[i].data) continue;
      const pe_test::Bytes& src = ts[i].data == 'w' ? q : scales;
      put_at(fd, data + offsets[i], pe_test::Bytes(src.begin(), src.begin() + static_cast<std::ptrdiff_t>(ts[i].rows * ts[i].cols * ts[i].element_bytes)));
    }
    if (::ftruncate(fd, static_cast<off_t>(data + at)) != 0) throw std::runtime_error("cannot extend " + path.string());
    ::close(fd);
    qk_bytes = static_cast<std::uint64_t>(layers) * (kQRows + kKRows) * kHidden;
  }
  ~Fp8File() {
    std::error_code ec;
    fs::remove(path, ec);
  }
};

template <class F>
F& file() {
  static F f;
  return f;
}

void report(benchmark::State& state, std::uint64_t qk_bytes, long long layers, long long anon_peak_kib, long long file_peak_kib) {
  state.SetBytesProcessed(static_cast<std::int64_t>(qk_bytes) * state.iterations());
  state.counters["qk_GB_per_s"] = benchmark::Counter(static_cast<double>(qk_bytes) * static_cast<double>(state.iterations()) / 1e9,
                                                     benchmark::Counter::kIsRate);
  state.counters["extra_anon_MiB"] = static_cast<double>(anon_peak_kib) / 1024.0;
  state.counters["resident_file_MiB"] = static_cast<double>(file_peak_kib) / 1024.0;
  state.counters["layer_qk_MiB"] = static_cast<double>(qk_bytes) / static_cast<double>(layers) / (1 << 20);
  state.counters["layers"] = static_cast<double>(layers);
}

template <class Source>
void run(benchmark::State& state, const Source& source, const pe::WeightsModel& model, std::uint64_t qk_bytes, long long layers) {
  pe::WeightsReadOptions o;
  o.threads = static_cast<int>(state.range(0));
  long long anon_peak = 0, file_peak = 0;
  for (auto _ : state) {
    const long long anon0 = status_kib("RssAnon:");
    o.progress = [&](const pe::WeightsProgress&) {
      anon_peak = std::max(anon_peak, status_kib("RssAnon:") - anon0);
      file_peak = std::max(file_peak, status_kib("RssFile:"));
      return true;
    };
    const pe::FrequencyUsage u = pe::measure_frequency_usage(source, model, o);
    if (u.bytes_read != qk_bytes) state.SkipWithError("read a different number of bytes");
    benchmark::DoNotOptimize(u.q_pair_norms.data());
  }
  report(state, qk_bytes, layers, anon_peak, file_peak);
}

void BM_WeightsReadBf16(benchmark::State& state) {
  Bf16File& f = file<Bf16File>();
  const auto c = pe::SafetensorsCheckpoint::open(f.path);
  run(state, c, llama8b_model(f.layers), f.qk_bytes, f.layers);
}
BENCHMARK(BM_WeightsReadBf16)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_WeightsReadQ4K(benchmark::State& state) {
  Q4KFile& f = file<Q4KFile>();
  const auto w = pe::GgufWeights::open(f.path);
  run(state, w, pe::gguf_weights_model(w.config()), f.qk_bytes, f.layers);
}
BENCHMARK(BM_WeightsReadQ4K)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// Every other ggml type by name (files written the first time each runs).
const bool kGgufTypesRegistered = [] {
  for (const char* type : {"q8_0", "q4_0", "q4_1", "q5_0", "q5_1", "iq4_nl", "q2_K", "q3_K", "q5_K", "q6_K", "iq4_xs"}) {
    benchmark::RegisterBenchmark((std::string("BM_WeightsReadGguf/") + type).c_str(), [type](benchmark::State& state) {
      static std::map<std::string, std::unique_ptr<GgufFile>> files;
      auto& f = files[type];
      if (!f) f = std::make_unique<GgufFile>(type);
      const auto w = pe::GgufWeights::open(f->path);
      run(state, w, pe::gguf_weights_model(w.config()), f->qk_bytes, f->layers);
    })->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
  }
  return true;
}();

void fp8_bench(benchmark::State& state, bool e4m3) {
  static std::map<bool, std::unique_ptr<Fp8File>> files;
  auto& f = files[e4m3];
  if (!f) f = std::make_unique<Fp8File>(e4m3);
  const auto c = pe::SafetensorsCheckpoint::open(f->path);
  run(state, c, llama8b_model(f->layers), f->qk_bytes, f->layers);
}
void BM_WeightsReadFp8_E4M3(benchmark::State& state) { fp8_bench(state, true); }
void BM_WeightsReadFp8_E5M2(benchmark::State& state) { fp8_bench(state, false); }
BENCHMARK(BM_WeightsReadFp8_E4M3)->Name("BM_WeightsReadFp8/E4M3")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_WeightsReadFp8_E5M2)->Name("BM_WeightsReadFp8/E5M2")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
