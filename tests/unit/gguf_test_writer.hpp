#pragma once
// A small GGUF writer for tests, benchmarks and the fuzz seeds: it lays bytes out as
// ggml/docs/gguf.md describes (little-endian, v3 by default), independently of the reader
// under test. Tensors may be declared without data (the file then ends before their
// region: a "40 GB" model in a few KiB), and raw values can be written to build broken files.
#include <sys/types.h>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace pe_test {

using Bytes = std::vector<std::uint8_t>;

// gguf.h enum gguf_type
enum GgufT : std::uint32_t {
  kU8 = 0, kI8 = 1, kU16 = 2, kI16 = 3, kU32 = 4, kI32 = 5, kF32 = 6, kBool = 7,
  kStr = 8, kArr = 9, kU64 = 10, kI64 = 11, kF64 = 12,
};

inline void put_le(Bytes& b, std::uint64_t v, int n) {
  for (int k = 0; k < n; ++k) b.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
}
inline void put_u32(Bytes& b, std::uint32_t v) { put_le(b, v, 4); }
inline void put_u64(Bytes& b, std::uint64_t v) { put_le(b, v, 8); }
inline void put_f32(Bytes& b, float v) { put_u32(b, std::bit_cast<std::uint32_t>(v)); }
inline void put_f64(Bytes& b, double v) { put_u64(b, std::bit_cast<std::uint64_t>(v)); }
inline void put_str(Bytes& b, const std::string& s) {
  put_u64(b, s.size());
  b.insert(b.end(), s.begin(), s.end());
}

class GgufBuilder {
 public:
  explicit GgufBuilder(std::uint32_t version = 3) : version_(version) {}

  // One key with its value already encoded (type + value bytes).
  GgufBuilder& raw(const std::string& key, std::uint32_t type, const Bytes& value) {
    ++n_kv_;
    put_str(kv_, key);
    put_u32(kv_, type);
    kv_.insert(kv_.end(), value.begin(), value.end());
    return *this;
  }
  template <class T>
  GgufBuilder& scalar(const std::string& key, std::uint32_t type, T v) {
    Bytes b;
    if constexpr (std::is_same_v<T, float>) put_f32(b, v);
    else if constexpr (std::is_same_v<T, double>) put_f64(b, v);
    else put_le(b, static_cast<std::uint64_t>(v), static_cast<int>(sizeof(T)));
    return raw(key, type, b);
  }
  GgufBuilder& u32(const std::string& key, std::uint32_t v) { return scalar(key, kU32, v); }
  GgufBuilder& f32(const std::string& key, float v) { return scalar(key, kF32, v); }
  GgufBuilder& str(const std::string& key, const std::string& v) {
    Bytes b;
    put_str(b, v);
    return raw(key, kStr, b);
  }
  GgufBuilder& arr_u32(const std::string& key, const std::vector<std::uint32_t>& v) {
    Bytes b;
    put_u32(b, kU32);
    put_u64(b, v.size());
    for (auto x : v) put_u32(b, x);
    return raw(key, kArr, b);
  }
  GgufBuilder& arr_i32(const std::string& key, const std::vector<std::int32_t>& v) {
    Bytes b;
    put_u32(b, kI32);
    put_u64(b, v.size());
    for (auto x : v) put_u32(b, static_cast<std::uint32_t>(x));
    return raw(key, kArr, b);
  }
  GgufBuilder& arr_f32(const std::string& key, const std::vector<float>& v) {
    Bytes b;
    put_u32(b, kF32);
    put_u64(b, v.size());
    for (auto x : v) put_f32(b, x);
    return raw(key, kArr, b);
  }
  GgufBuilder& arr_str(const std::string& key, const std::vector<std::string>& v) {
    Bytes b;
    put_u32(b, kStr);
    put_u64(b, v.size());
    for (const auto& x : v) put_str(b, x);
    return raw(key, kArr, b);
  }

  // A tensor: `data` empty declares it without writing its bytes (byte_size is then the
  // size its type and shape imply, passed by the caller). Offsets are assigned back to
  // back, each padded to the alignment, as gguf-py's writer does.
  GgufBuilder& tensor(const std::string& name, const std::vector<std::int64_t>& shape, std::uint32_t ggml_type,
                      std::uint64_t byte_size, Bytes data = {}) {
    if (!data.empty() && data.size() != byte_size) throw std::logic_error("tensor data size");
    tensors_.push_back({name, shape, ggml_type, next_offset_, byte_size, std::move(data)});
    next_offset_ += (byte_size + alignment_ - 1) / alignment_ * alignment_;
    return *this;
  }
  GgufBuilder& f32_tensor(const std::string& name, const std::vector<float>& values) {
    Bytes b;
    for (float v : values) put_f32(b, v);
    return tensor(name, {static_cast<std::int64_t>(values.size())}, 0, b.size(), b);
  }
  // Changes the alignment for tensors added after (write general.alignment to match).
  GgufBuilder& alignment(std::uint64_t a) {
    alignment_ = a;
    return *this;
  }

  // The file: header, tensor infos, padding, then the data of the leading tensors that
  // have data (the file ends at the first declared-only tensor).
  Bytes bytes() const {
    Bytes b = {'G', 'G', 'U', 'F'};
    put_u32(b, version_);
    put_u64(b, tensors_.size());
    put_u64(b, n_kv_);
    b.insert(b.end(), kv_.begin(), kv_.end());
    for (const auto& t : tensors_) {
      put_str(b, t.name);
      put_u32(b, static_cast<std::uint32_t>(t.shape.size()));
      for (auto d : t.shape) put_u64(b, static_cast<std::uint64_t>(d));
      put_u32(b, t.type);
      put_u64(b, t.offset);
    }
    header_end_ = b.size();
    if (tensors_.empty()) return b;
    const std::uint64_t data_start = (b.size() + alignment_ - 1) / alignment_ * alignment_;
    data_offset_ = data_start;
    for (const auto& t : tensors_) {
      if (t.data.empty()) break;
      b.resize(static_cast<std::size_t>(data_start + t.offset), 0);
      b.insert(b.end(), t.data.begin(), t.data.end());
    }
    return b;
  }
  // Byte position after the last tensor info, and the data section's start (valid after bytes()).
  std::uint64_t header_end() const { return header_end_; }
  std::uint64_t data_offset() const { return data_offset_; }
  std::uint64_t declared_data_size() const { return next_offset_; }

 private:
  struct Tensor {
    std::string name;
    std::vector<std::int64_t> shape;
    std::uint32_t type;
    std::uint64_t offset, byte_size;
    Bytes data;
  };
  std::uint32_t version_;
  std::uint64_t n_kv_ = 0;
  Bytes kv_;
  std::vector<Tensor> tensors_;
  std::uint64_t next_offset_ = 0;
  std::uint64_t alignment_ = 32;
  mutable std::uint64_t header_end_ = 0, data_offset_ = 0;
};

inline void write_bytes(const std::filesystem::path& path, const Bytes& b, std::uint64_t sparse_size = 0) {
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
    if (!out) throw std::runtime_error("cannot write " + path.string());
  }
  // Extends the file with a hole: the declared region "exists" without using disk.
  if (sparse_size > b.size() && ::truncate(path.c_str(), static_cast<off_t>(sparse_size)) != 0)
    throw std::runtime_error("cannot extend " + path.string());
}

// A Llama-3.1-8B-shaped GGUF header (metadata as convert_hf_to_gguf.py writes it, rope_freqs
// from the published llama3 parameters) with `n_layers` blocks of declared-only weights.
// With tokens > 0 it carries a tokenizer of that many strings (real files: 128256).
inline GgufBuilder llama31_builder(int n_layers = 32, int tokens = 0, std::uint32_t weight_type = 0 /* f32 */) {
  GgufBuilder g;
  g.str("general.architecture", "llama").str("general.name", "Llama 3.1 8B (test)");
  g.u32("llama.block_count", static_cast<std::uint32_t>(n_layers)).u32("llama.context_length", 131072);
  g.u32("llama.embedding_length", 4096).u32("llama.feed_forward_length", 14336);
  g.u32("llama.attention.head_count", 32).u32("llama.attention.head_count_kv", 8);
  g.f32("llama.rope.freq_base", 500000.0f).u32("llama.rope.dimension_count", 128);
  g.f32("llama.attention.layer_norm_rms_epsilon", 1e-5f).u32("general.file_type", 0);
  if (tokens > 0) {
    std::vector<std::string> toks;
    std::vector<std::int32_t> types;
    toks.reserve(static_cast<std::size_t>(tokens));
    for (int k = 0; k < tokens; ++k) {
      toks.push_back("tok" + std::to_string(k));
      types.push_back(1);
    }
    g.str("tokenizer.ggml.model", "gpt2").arr_str("tokenizer.ggml.tokens", toks).arr_i32("tokenizer.ggml.token_type", types);
  }
  // rope_freqs: convert_hf_to_gguf.py LlamaModel.generate_extra_tensors with factor 8,
  // low 1, high 4, original 8192 (written out here, in double, from the formula).
  std::vector<float> freqs;
  const double pi = 3.14159265358979323846;
  for (int i = 0; i < 64; ++i) {
    const double f = std::pow(500000.0, -2.0 * i / 128.0);
    const double wavelen = 2 * pi / f;
    if (wavelen < 8192.0 / 4.0) freqs.push_back(1.0f);
    else if (wavelen > 8192.0 / 1.0) freqs.push_back(8.0f);
    else {
      const double smooth = (8192.0 / wavelen - 1.0) / (4.0 - 1.0);
      freqs.push_back(static_cast<float>(1.0 / ((1.0 - smooth) / 8.0 + smooth)));
    }
  }
  g.f32_tensor("rope_freqs.weight", freqs);
  const auto decl = [&](const std::string& name, std::vector<std::int64_t> shape) {
    std::uint64_t n = 1;
    for (auto d : shape) n *= static_cast<std::uint64_t>(d);
    g.tensor(name, shape, weight_type, n * (weight_type == 0 ? 4 : 2));
  };
  decl("token_embd.weight", {4096, 128256});
  for (int l = 0; l < n_layers; ++l) {
    const std::string b = "blk." + std::to_string(l) + ".";
    decl(b + "attn_q.weight", {4096, 4096});
    decl(b + "attn_k.weight", {4096, 1024});
    decl(b + "attn_v.weight", {4096, 1024});
    decl(b + "attn_output.weight", {4096, 4096});
    decl(b + "ffn_gate.weight", {4096, 14336});
    decl(b + "ffn_up.weight", {4096, 14336});
    decl(b + "ffn_down.weight", {14336, 4096});
    decl(b + "attn_norm.weight", {4096});
    decl(b + "ffn_norm.weight", {4096});
  }
  decl("output_norm.weight", {4096});
  decl("output.weight", {4096, 128256});
  return g;
}

}  // namespace pe_test
