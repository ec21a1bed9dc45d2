// GGUF header reader. Follows the file layout of ggml/docs/gguf.md and the checks of
// llama.cpp's own reader (ggml/src/gguf.cpp `gguf_init_from_reader`): magic, version,
// counts, keys, value types, tensor shapes, types and offsets. Unlike llama.cpp it never
// reads the tensor data blob, keeps only the first elements of long arrays, accepts nested
// arrays (the spec allows them; llama.cpp refuses) and reports tensor layouts llama.cpp
// would refuse as diagnostics rather than refusing the whole file.
//
// Allocation is bounded by the file: before a count is used, count × (smallest possible
// record) is compared with the bytes left in the file, so a declared 2^60 tensors or a
// 2^60-byte string is refused with a message instead of an allocation.
#include "pe/models/gguf.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <unordered_set>
#include <utility>

#include "pe/base/errors.hpp"
#include "pe/base/number_text.hpp"

namespace pe {

namespace {

// Keys, names and strings come from the file: control bytes are escaped and long ones cut,
// so a message is one readable line whatever the file holds.
std::string printable(const std::string& s, std::size_t max = 256) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (std::size_t k = 0; k < s.size(); ++k) {
    if (out.size() >= max) return out + "…";
    const auto ch = static_cast<unsigned char>(s[k]);
    if (ch < 0x20 || ch == 0x7f) {
      out += "\\x";
      out += digits[ch >> 4];
      out += digits[ch & 15];
    } else {
      out += static_cast<char>(ch);
    }
  }
  return out;
}

}  // namespace

GgufError::GgufError(std::string key, std::uint64_t offset, std::string message)
    : ConfigError(printable(key), printable(offset == kNoOffset ? message : message + " (at byte " + std::to_string(offset) + ")",
                                       4096)),
      offset_(offset) {}

const char* to_string(GgufType t) {
  switch (t) {
    case GgufType::Uint8: return "uint8";
    case GgufType::Int8: return "int8";
    case GgufType::Uint16: return "uint16";
    case GgufType::Int16: return "int16";
    case GgufType::Uint32: return "uint32";
    case GgufType::Int32: return "int32";
    case GgufType::Float32: return "float32";
    case GgufType::Bool: return "bool";
    case GgufType::String: return "string";
    case GgufType::Array: return "array";
    case GgufType::Uint64: return "uint64";
    case GgufType::Int64: return "int64";
    case GgufType::Float64: return "float64";
  }
  return "unknown";
}

std::optional<long long> GgufValue::as_integer() const {
  switch (type) {
    case GgufType::Uint8:
    case GgufType::Uint16:
    case GgufType::Uint32:
    case GgufType::Uint64:
    case GgufType::Bool:
      if (u > static_cast<std::uint64_t>(std::numeric_limits<long long>::max())) return std::nullopt;
      return static_cast<long long>(u);
    case GgufType::Int8:
    case GgufType::Int16:
    case GgufType::Int32:
    case GgufType::Int64:
      return static_cast<long long>(i);
    default:
      return std::nullopt;
  }
}

std::optional<double> GgufValue::as_number() const {
  switch (type) {
    case GgufType::Float32:
    case GgufType::Float64:
      return f;
    case GgufType::Uint8:
    case GgufType::Uint16:
    case GgufType::Uint32:
    case GgufType::Uint64:
      return static_cast<double>(u);
    case GgufType::Int8:
    case GgufType::Int16:
    case GgufType::Int32:
    case GgufType::Int64:
      return static_cast<double>(i);
    default:
      return std::nullopt;
  }
}

std::int64_t GgufTensorInfo::elements() const {
  std::int64_t n = 1;
  for (std::int64_t d : shape) n *= d;  // the reader checked the product fits
  return n;
}

namespace {

struct GgmlTypeTraits {
  const char* name;
  std::uint32_t block_size;  // elements per block
  std::uint32_t type_size;   // bytes per block
};

// gguf-py/gguf/constants.py GGMLQuantizationType and GGML_QUANT_SIZES (block size, type
// size); names as ggml.c's type_traits print them. Numbers 4, 5, 31–33 and 36–38 belong to
// removed types.
std::optional<GgmlTypeTraits> ggml_traits(std::uint32_t type) {
  constexpr std::uint32_t K = 256;  // QK_K
  switch (type) {
    case 0: return GgmlTypeTraits{"f32", 1, 4};
    case 1: return GgmlTypeTraits{"f16", 1, 2};
    case 2: return GgmlTypeTraits{"q4_0", 32, 2 + 16};
    case 3: return GgmlTypeTraits{"q4_1", 32, 2 + 2 + 16};
    case 6: return GgmlTypeTraits{"q5_0", 32, 2 + 4 + 16};
    case 7: return GgmlTypeTraits{"q5_1", 32, 2 + 2 + 4 + 16};
    case 8: return GgmlTypeTraits{"q8_0", 32, 2 + 32};
    case 9: return GgmlTypeTraits{"q8_1", 32, 4 + 4 + 32};
    case 10: return GgmlTypeTraits{"q2_K", K, 2 + 2 + K / 16 + K / 4};
    case 11: return GgmlTypeTraits{"q3_K", K, 2 + K / 4 + K / 8 + 12};
    case 12: return GgmlTypeTraits{"q4_K", K, 2 + 2 + K / 2 + 12};
    case 13: return GgmlTypeTraits{"q5_K", K, 2 + 2 + K / 2 + K / 8 + 12};
    case 14: return GgmlTypeTraits{"q6_K", K, 2 + K / 2 + K / 4 + K / 16};
    case 15: return GgmlTypeTraits{"q8_K", K, 4 + K + K / 8};
    case 16: return GgmlTypeTraits{"iq2_xxs", K, 2 + K / 4};
    case 17: return GgmlTypeTraits{"iq2_xs", K, 2 + K / 4 + K / 32};
    case 18: return GgmlTypeTraits{"iq3_xxs", K, 2 + K / 4 + K / 8};
    case 19: return GgmlTypeTraits{"iq1_s", K, 2 + K / 8 + K / 16};
    case 20: return GgmlTypeTraits{"iq4_nl", 32, 2 + 16};
    case 21: return GgmlTypeTraits{"iq3_s", K, 2 + K / 4 + K / 8 + K / 32 + 4};
    case 22: return GgmlTypeTraits{"iq2_s", K, 2 + K / 4 + K / 16};
    case 23: return GgmlTypeTraits{"iq4_xs", K, 2 + 2 + K / 2 + K / 64};
    case 24: return GgmlTypeTraits{"i8", 1, 1};
    case 25: return GgmlTypeTraits{"i16", 1, 2};
    case 26: return GgmlTypeTraits{"i32", 1, 4};
    case 27: return GgmlTypeTraits{"i64", 1, 8};
    case 28: return GgmlTypeTraits{"f64", 1, 8};
    case 29: return GgmlTypeTraits{"iq1_m", K, K / 8 + K / 16 + K / 32};
    case 30: return GgmlTypeTraits{"bf16", 1, 2};
    case 34: return GgmlTypeTraits{"tq1_0", K, 2 + 4 * 13};
    case 35: return GgmlTypeTraits{"tq2_0", K, 2 + 64};
    case 39: return GgmlTypeTraits{"mxfp4", 32, 1 + 16};
    case 40: return GgmlTypeTraits{"nvfp4", 64, 4 + 32};
    case 41: return GgmlTypeTraits{"q1_0", 128, 2 + 16};
    default: return std::nullopt;
  }
}

constexpr std::uint32_t kGgmlF32 = 0, kGgmlF16 = 1, kGgmlBf16 = 30;

// Where bytes come from: a file (read through a buffer) or memory.
class Source {
 public:
  virtual ~Source() = default;
  virtual std::uint64_t size() const = 0;
  // Copies n bytes at `offset`; false when they are not all inside the source.
  virtual bool read(std::uint64_t offset, void* dst, std::size_t n) = 0;
};

class MemorySource final : public Source {
 public:
  explicit MemorySource(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  std::uint64_t size() const override { return bytes_.size(); }
  bool read(std::uint64_t offset, void* dst, std::size_t n) override {
    if (offset > bytes_.size() || n > bytes_.size() - offset) return false;
    if (n) std::memcpy(dst, bytes_.data() + offset, n);
    return true;
  }

 private:
  std::span<const std::uint8_t> bytes_;
};

// A file read through the caller's function (whatever it throws passes through).
class FunctionSource final : public Source {
 public:
  FunctionSource(const GgufReadFunction& read, std::uint64_t size) : read_(read), size_(size) {}
  std::uint64_t size() const override { return size_; }
  bool read(std::uint64_t offset, void* dst, std::size_t n) override {
    if (offset > size_ || n > size_ - offset) return false;
    if (n) read_(offset, dst, n);
    return true;
  }

 private:
  const GgufReadFunction& read_;
  std::uint64_t size_;
};

// A file read through one window of kWindow bytes: headers are read front to back in
// small pieces, so nearly every read is a memcpy from the window.
class FileSource final : public Source {
 public:
  explicit FileSource(const std::filesystem::path& path) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status))
      throw GgufError("", GgufError::kNoOffset, "cannot open " + path.string() + ": " + (ec ? ec.message() : "no such file"));
    if (std::filesystem::is_directory(status)) throw GgufError("", GgufError::kNoOffset, path.string() + " is a directory, not a GGUF file");
    // A FIFO or device would block or never end: only regular files (symlinks followed).
    if (!std::filesystem::is_regular_file(status))
      throw GgufError("", GgufError::kNoOffset, path.string() + " is not a regular file");
    file_ = std::fopen(path.c_str(), "rb");
    if (!file_) throw GgufError("", GgufError::kNoOffset, "cannot open " + path.string() + ": " + std::strerror(errno));
    if (fseeko(file_, 0, SEEK_END) != 0) fail_io(path, "seek");
    const off_t end = ftello(file_);
    if (end < 0) fail_io(path, "tell");
    size_ = static_cast<std::uint64_t>(end);
  }
  ~FileSource() override {
    if (file_) std::fclose(file_);
  }
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;

  std::uint64_t size() const override { return size_; }

  bool read(std::uint64_t offset, void* dst, std::size_t n) override {
    if (offset > size_ || n > size_ - offset) return false;
    if (n == 0) return true;
    if (offset >= window_start_ && offset + n <= window_start_ + window_.size()) {
      std::memcpy(dst, window_.data() + (offset - window_start_), n);
      return true;
    }
    if (n >= kWindow) return raw(offset, dst, n);
    window_.resize(static_cast<std::size_t>(std::min<std::uint64_t>(kWindow, size_ - offset)));
    if (!raw(offset, window_.data(), window_.size())) {
      window_.clear();
      return false;
    }
    window_start_ = offset;
    std::memcpy(dst, window_.data(), n);
    return true;
  }

 private:
  static constexpr std::size_t kWindow = 1u << 20;

  bool raw(std::uint64_t offset, void* dst, std::size_t n) {
    if (offset > static_cast<std::uint64_t>(std::numeric_limits<off_t>::max())) return false;
    if (fseeko(file_, static_cast<off_t>(offset), SEEK_SET) != 0) return false;
    return std::fread(dst, 1, n, file_) == n;
  }
  [[noreturn]] void fail_io(const std::filesystem::path& path, const char* what) {
    const std::string reason = std::strerror(errno);
    std::fclose(file_);
    file_ = nullptr;
    throw GgufError("", GgufError::kNoOffset, std::string("cannot ") + what + " " + path.string() + ": " + reason);
  }

  std::FILE* file_ = nullptr;
  std::uint64_t size_ = 0;
  std::vector<std::uint8_t> window_;
  std::uint64_t window_start_ = 0;
};

// Sequential little-endian reads with bounds checks; every error names `key`.
class Cursor {
 public:
  explicit Cursor(Source& src) : src_(src), size_(src.size()) {}

  std::uint64_t pos() const { return pos_; }
  std::uint64_t remaining() const { return size_ - pos_; }
  std::uint64_t size() const { return size_; }

  void need(std::uint64_t n, const std::string& key) const {
    if (n > remaining())
      throw GgufError(key, pos_,
                      "the file ends inside this value: " + std::to_string(n) + " more bytes needed, " +
                          std::to_string(remaining()) + " left (file size " + std::to_string(size_) + ")");
  }

  template <std::size_t N>
  std::array<std::uint8_t, N> raw(const std::string& key) {
    need(N, key);
    std::array<std::uint8_t, N> b{};
    if (!src_.read(pos_, b.data(), N)) throw GgufError(key, pos_, "read error");
    pos_ += N;
    return b;
  }

  std::uint8_t u8(const std::string& key) { return raw<1>(key)[0]; }
  std::uint16_t u16(const std::string& key) {
    const auto b = raw<2>(key);
    return static_cast<std::uint16_t>(b[0] | (b[1] << 8));
  }
  std::uint32_t u32(const std::string& key) {
    const auto b = raw<4>(key);
    return static_cast<std::uint32_t>(b[0]) | static_cast<std::uint32_t>(b[1]) << 8 |
           static_cast<std::uint32_t>(b[2]) << 16 | static_cast<std::uint32_t>(b[3]) << 24;
  }
  std::uint64_t u64(const std::string& key) {
    const auto b = raw<8>(key);
    std::uint64_t v = 0;
    for (int k = 7; k >= 0; --k) v = (v << 8) | b[static_cast<std::size_t>(k)];
    return v;
  }

  // Reads `n` bytes, keeping the first `keep` in `out` (the rest is skipped).
  void bytes(std::uint64_t n, std::uint64_t keep, std::string& out, const std::string& key) {
    need(n, key);
    const std::size_t k = static_cast<std::size_t>(std::min(n, keep));
    out.resize(k);
    if (k && !src_.read(pos_, out.data(), k)) throw GgufError(key, pos_, "read error");
    pos_ += n;
  }
  void skip(std::uint64_t n, const std::string& key) {
    need(n, key);
    pos_ += n;
  }
  void seek(std::uint64_t p) { pos_ = p; }

 private:
  Source& src_;
  std::uint64_t size_;
  std::uint64_t pos_ = 0;
};

bool valid_type(std::uint32_t t) { return t <= static_cast<std::uint32_t>(GgufType::Float64); }

// Bytes of a fixed-size value; 0 for string and array.
std::uint64_t fixed_size(GgufType t) {
  switch (t) {
    case GgufType::Uint8:
    case GgufType::Int8:
    case GgufType::Bool:
      return 1;
    case GgufType::Uint16:
    case GgufType::Int16:
      return 2;
    case GgufType::Uint32:
    case GgufType::Int32:
    case GgufType::Float32:
      return 4;
    case GgufType::Uint64:
    case GgufType::Int64:
    case GgufType::Float64:
      return 8;
    case GgufType::String:
    case GgufType::Array:
      return 0;
  }
  return 0;
}

// The fewest bytes one element of type t can take (string: its u64 length; array: its
// element type and count).
std::uint64_t min_size(GgufType t) {
  if (t == GgufType::String) return 8;
  if (t == GgufType::Array) return 12;
  return fixed_size(t);
}

class Parser {
 public:
  Parser(Source& src, std::string name) : c_(src) { file_.name = std::move(name); }

  GgufFile parse() {
    file_.file_size = c_.size();
    header();
    std::int64_t n_tensors = 0, n_kv = 0;
    counts(n_tensors, n_kv);
    metadata(n_kv);
    alignment();
    tensor_infos(n_tensors);
    data_section(n_tensors);
    return std::move(file_);
  }

 private:
  void header() {
    const auto magic = c_.raw<4>("magic");
    if (std::memcmp(magic.data(), "GGUF", 4) != 0) {
      std::string shown, hex;
      static const char* digits = "0123456789abcdef";
      for (std::uint8_t b : magic) {
        shown += (b >= 0x20 && b < 0x7f) ? static_cast<char>(b) : '?';
        hex += digits[b >> 4];
        hex += digits[b & 15];
      }
      throw GgufError("magic", 0, "not a GGUF file: it starts with \"" + shown + "\" (0x" + hex + "), expected \"GGUF\"");
    }
    const std::uint64_t at = c_.pos();
    const std::uint32_t v = c_.u32("version");
    // A big-endian file stores 3 as 00 00 00 03, read here as 0x03000000: llama.cpp's
    // reader spots it by the empty low 16 bits.
    if (v != 0 && (v & 0xFFFFu) == 0)
      throw GgufError("version", at,
                      "version reads as " + std::to_string(v) +
                          ": a big-endian GGUF file; only little-endian files are supported (convert without --bigendian)");
    if (v == 1)
      throw GgufError("version", at,
                      "GGUF version 1 is not supported (its counts and lengths are 32-bit; llama.cpp dropped it too): "
                      "re-convert the model with a current convert_hf_to_gguf.py");
    if (v != 2 && v != 3) throw GgufError("version", at, "GGUF version " + std::to_string(v) + " is not supported (2 and 3 are)");
    file_.version = v;
  }

  void counts(std::int64_t& n_tensors, std::int64_t& n_kv) {
    const std::uint64_t at_t = c_.pos();
    const std::uint64_t t = c_.u64("tensor_count");
    const std::uint64_t at_kv = c_.pos();
    const std::uint64_t kv = c_.u64("metadata_kv_count");
    // Smallest records: a key/value is u64 length + 1 byte key + u32 type + 1 byte value; a
    // tensor info is u64 length + 1 byte name + u32 n_dims + u32 type + u64 offset.
    constexpr std::uint64_t kMinKv = 8 + 1 + 4 + 1, kMinTensor = 8 + 1 + 4 + 4 + 8;
    const std::uint64_t left = c_.remaining();
    if (kv > left / kMinKv)
      throw GgufError("metadata_kv_count", at_kv,
                      std::to_string(kv) + " key/value pairs cannot fit in the " + std::to_string(left) +
                          " bytes after the header (each takes at least " + std::to_string(kMinKv) + ")");
    if (t > left / kMinTensor)
      throw GgufError("tensor_count", at_t,
                      std::to_string(t) + " tensors cannot fit in the " + std::to_string(left) +
                          " bytes after the header (each tensor info takes at least " + std::to_string(kMinTensor) + ")");
    n_tensors = static_cast<std::int64_t>(t);
    n_kv = static_cast<std::int64_t>(kv);
  }

  std::string read_string(const std::string& key, std::uint64_t max_length, std::uint64_t keep) {
    const std::uint64_t at = c_.pos();
    const std::uint64_t n = c_.u64(key);
    if (n > max_length)
      throw GgufError(key, at, "string length " + std::to_string(n) + " exceeds the limit of " + std::to_string(max_length) + " bytes");
    if (n > c_.remaining())
      throw GgufError(key, at,
                      "string length " + std::to_string(n) + " runs past the end of the file (" +
                          std::to_string(c_.remaining()) + " bytes left after the length)");
    std::string s;
    c_.bytes(n, keep, s, key);
    return s;
  }

  GgufType read_type(const std::string& key) {
    const std::uint64_t at = c_.pos();
    const std::uint32_t t = c_.u32(key);
    if (!valid_type(t))
      throw GgufError(key, at, "unknown value type " + std::to_string(t) + " (types are 0 ... 12, gguf.h enum gguf_type)");
    return static_cast<GgufType>(t);
  }

  GgufValue scalar(GgufType t, const std::string& key) {
    GgufValue v;
    v.type = t;
    switch (t) {
      case GgufType::Uint8: v.u = c_.u8(key); break;
      case GgufType::Bool: v.u = c_.u8(key) != 0 ? 1 : 0; break;
      case GgufType::Int8: v.i = static_cast<std::int8_t>(c_.u8(key)); break;
      case GgufType::Uint16: v.u = c_.u16(key); break;
      case GgufType::Int16: v.i = static_cast<std::int16_t>(c_.u16(key)); break;
      case GgufType::Uint32: v.u = c_.u32(key); break;
      case GgufType::Int32: v.i = static_cast<std::int32_t>(c_.u32(key)); break;
      case GgufType::Uint64: v.u = c_.u64(key); break;
      case GgufType::Int64: v.i = static_cast<std::int64_t>(c_.u64(key)); break;
      case GgufType::Float32: v.f = pe::bit_cast<float>(c_.u32(key)); break;
      case GgufType::Float64: v.f = pe::bit_cast<double>(c_.u64(key)); break;
      case GgufType::String: {
        const std::uint64_t at = c_.pos();
        v.s = read_string(key, kGgufMaxStringLength, kGgufKeptStringBytes);
        v.truncated = c_.pos() - at - 8 > v.s.size();
        break;
      }
      case GgufType::Array: break;  // handled by array()
    }
    return v;
  }

  GgufValue array(const std::string& key, int depth) {
    if (depth > kGgufMaxArrayDepth)
      throw GgufError(key, c_.pos(), "arrays nested more than " + std::to_string(kGgufMaxArrayDepth) + " deep");
    GgufValue v;
    v.type = GgufType::Array;
    v.element_type = read_type(key);
    const std::uint64_t at = c_.pos();
    v.count = c_.u64(key);
    const std::uint64_t each = min_size(v.element_type);
    if (v.count > c_.remaining() / each)
      throw GgufError(key, at,
                      "array of " + std::to_string(v.count) + " " + to_string(v.element_type) + " elements cannot fit in the " +
                          std::to_string(c_.remaining()) + " bytes left (each takes at least " + std::to_string(each) + ")");
    const bool small_items = fixed_size(v.element_type) != 0;
    const std::uint64_t keep = std::min<std::uint64_t>(v.count, small_items ? kGgufKeptArrayItems : kGgufKeptStringArrayItems);
    v.truncated = keep < v.count;
    v.items.reserve(static_cast<std::size_t>(keep));
    if (small_items) {
      for (std::uint64_t k = 0; k < keep; ++k) v.items.push_back(scalar(v.element_type, key));
      c_.skip((v.count - keep) * fixed_size(v.element_type), key);
    } else if (v.element_type == GgufType::String) {
      for (std::uint64_t k = 0; k < v.count; ++k) {
        if (k < keep) {
          v.items.push_back(scalar(GgufType::String, key));
          v.truncated = v.truncated || v.items.back().truncated;
        } else {
          read_string(key, kGgufMaxStringLength, 0);
        }
      }
    } else {
      for (std::uint64_t k = 0; k < v.count; ++k) {
        GgufValue inner = array(key, depth + 1);
        if (k < keep) v.items.push_back(std::move(inner));
      }
    }
    return v;
  }

  void metadata(std::int64_t n_kv) {
    std::unordered_set<std::string> seen;
    file_.metadata.reserve(static_cast<std::size_t>(std::min<std::int64_t>(n_kv, 1 << 16)));
    for (std::int64_t k = 0; k < n_kv; ++k) {
      const std::uint64_t at = c_.pos();
      const std::string where = "metadata key " + std::to_string(k);
      std::string key = read_string(where, kGgufMaxKeyLength, kGgufMaxKeyLength);
      if (key.empty()) throw GgufError(where, at, "empty key");
      if (!seen.insert(key).second) throw GgufError(key, at, "duplicate key (gguf.cpp refuses these too)");
      GgufKeyValue kv;
      kv.offset = at;
      const GgufType t = read_type(key);
      kv.value = t == GgufType::Array ? array(key, 1) : scalar(t, key);
      kv.key = std::move(key);
      file_.metadata.push_back(std::move(kv));
    }
  }

  void alignment() {
    const GgufKeyValue* a = file_.find_entry("general.alignment");
    if (!a) return;
    // gguf.cpp: general.alignment must be a uint32 and a power of two.
    if (a->value.type != GgufType::Uint32)
      throw GgufError("general.alignment", a->offset, std::string("must be a uint32, got ") + type_text(a->value));
    const std::uint64_t v = a->value.u;
    if (v == 0 || (v & (v - 1)) != 0)
      throw GgufError("general.alignment", a->offset, "must be a power of two, got " + std::to_string(v));
    file_.alignment = v;
  }

  void tensor_infos(std::int64_t n_tensors) {
    std::unordered_set<std::string> seen;
    std::unordered_set<std::uint32_t> unknown_types;
    file_.tensors.reserve(static_cast<std::size_t>(n_tensors));
    for (std::int64_t k = 0; k < n_tensors; ++k) {
      GgufTensorInfo t;
      t.info_offset = c_.pos();
      const std::string where = "tensor " + std::to_string(k);
      t.name = read_string(where, 1024, 1024);
      if (t.name.empty()) throw GgufError(where, t.info_offset, "empty tensor name");
      if (!seen.insert(t.name).second) throw GgufError(t.name, t.info_offset, "duplicate tensor name");
      const std::string& key = t.name;

      const std::uint64_t at_dims = c_.pos();
      const std::uint32_t n_dims = c_.u32(key);
      if (n_dims > kGgufMaxDims)
        throw GgufError(key, at_dims, std::to_string(n_dims) + " dimensions (at most " + std::to_string(kGgufMaxDims) + ", GGML_MAX_DIMS)");
      std::int64_t elements = 1;
      for (std::uint32_t d = 0; d < n_dims; ++d) {
        const std::uint64_t at = c_.pos();
        const std::int64_t ne = static_cast<std::int64_t>(c_.u64(key));
        if (ne < 0) throw GgufError(key, at, "dimension " + std::to_string(d) + " has " + std::to_string(ne) + " elements");
        if (ne != 0 && elements > std::numeric_limits<std::int64_t>::max() / ne)
          throw GgufError(key, at, "element count overflows 64 bits");
        elements *= ne;
        t.shape.push_back(ne);
      }
      const std::uint64_t at_type = c_.pos();
      t.ggml_type = c_.u32(key);
      const auto traits = ggml_traits(t.ggml_type);
      if (traits) {
        const std::int64_t row = t.shape.empty() ? 1 : t.shape[0];
        if (row % traits->block_size != 0)
          throw GgufError(key, at_type,
                          std::string("rows of ") + std::to_string(row) + " elements are not a multiple of " + traits->name +
                              "'s block of " + std::to_string(traits->block_size));
        const std::uint64_t blocks = static_cast<std::uint64_t>(elements) / traits->block_size;
        if (blocks > std::numeric_limits<std::uint64_t>::max() / traits->type_size)
          throw GgufError(key, at_type, "byte size overflows 64 bits");
        t.byte_size = blocks * traits->type_size;
      } else if (unknown_types.insert(t.ggml_type).second) {
        file_.diagnostics.push_back({Severity::Warning, key,
                                     "ggml type " + std::to_string(t.ggml_type) +
                                         " is unknown to this reader (llama.cpp refuses types it does not know); its size is not counted"});
      }
      const std::uint64_t at_offset = c_.pos();
      t.offset = c_.u64(key);
      if (t.offset % file_.alignment != 0)
        throw GgufError(key, at_offset,
                        "data offset " + std::to_string(t.offset) + " is not a multiple of general.alignment = " +
                            std::to_string(file_.alignment));
      file_.tensors.push_back(std::move(t));
    }
  }

  void data_section(std::int64_t n_tensors) {
    const std::uint64_t a = file_.alignment;
    std::uint64_t start = c_.pos();
    // gguf.cpp pads to the alignment only when there are tensors.
    if (n_tensors > 0) start = (start + a - 1) / a * a;
    file_.data_offset = start;
    std::uint64_t expected = 0, end = 0;
    bool reported_gap = false;
    constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
    for (const GgufTensorInfo& t : file_.tensors) {
      if (t.byte_size > kMax - a) throw GgufError(t.name, t.info_offset, "tensor size overflows 64 bits");
      const std::uint64_t padded = (t.byte_size + a - 1) / a * a;
      if (t.offset > kMax - padded || t.offset + padded > kMax - start)
        throw GgufError(t.name, t.info_offset, "offset " + std::to_string(t.offset) + " + size overflows 64 bits");
      // llama.cpp requires tensors back to back in file order (gguf_init_from_reader:
      // "tensor ... has offset ..., expected ..."); other readers do not.
      if (t.offset != expected && !reported_gap) {
        reported_gap = true;
        file_.diagnostics.push_back({Severity::Warning, t.name,
                                     "data offset " + std::to_string(t.offset) + ", expected " + std::to_string(expected) +
                                         " (tensors not back to back: llama.cpp refuses this file)"});
      }
      expected = t.offset + padded;
      end = std::max(end, t.offset + t.byte_size);  // llama.cpp's loader checks offset + nbytes <= file size
    }
    file_.data_size = end;
    if (!file_.data_complete()) {
      const std::uint64_t have = file_.file_size > start ? file_.file_size - start : 0;
      file_.diagnostics.push_back(
          {Severity::Warning, "",
           "tensor data: the header declares " + format_bytes(static_cast<std::size_t>(std::min<std::uint64_t>(end, SIZE_MAX))) +
               " from byte " + std::to_string(start) + ", the file holds " +
               format_bytes(static_cast<std::size_t>(std::min<std::uint64_t>(have, SIZE_MAX))) +
               " of it (a header-only, truncated or still-downloading file); weights are never read, positional "
               "tensors only if present"});
    }
  }

  Cursor c_;
  GgufFile file_;
};

float half_to_float(std::uint16_t h) {
  // IEEE 754 binary16 → binary32, written out (subnormals, inf and nan included).
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1Fu;
  const std::uint32_t mant = h & 0x3FFu;
  if (exp == 0) {
    const float m = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -m : m;
  }
  if (exp == 31) return pe::bit_cast<float>(sign | 0x7F800000u | (mant << 13));
  return pe::bit_cast<float>(sign | ((exp + 112) << 23) | (mant << 13));
}

std::vector<float> read_tensor(Source& src, const GgufFile& file, const GgufTensorInfo& t, std::size_t max_elements) {
  const std::string& key = t.name;
  for (std::size_t d = 1; d < t.shape.size(); ++d)
    if (t.shape[d] != 1) throw GgufError(key, t.info_offset, "expected a 1-D tensor, its dimension " + std::to_string(d) + " is " + std::to_string(t.shape[d]));
  std::size_t elem_size = 0;
  if (t.ggml_type == kGgmlF32) elem_size = 4;
  else if (t.ggml_type == kGgmlF16 || t.ggml_type == kGgmlBf16) elem_size = 2;
  else {
    const char* n = ggml_type_name(t.ggml_type);
    throw GgufError(key, t.info_offset,
                    std::string("expected an f32, f16 or bf16 tensor, got ") + (n ? n : "type " + std::to_string(t.ggml_type)));
  }
  const std::int64_t n = t.elements();
  if (n < 0 || static_cast<std::uint64_t>(n) > max_elements)
    throw GgufError(key, t.info_offset, std::to_string(n) + " values, more than the " + std::to_string(max_elements) + " expected");
  const std::uint64_t at = file.data_offset + t.offset;
  const std::uint64_t bytes = static_cast<std::uint64_t>(n) * elem_size;
  if (at > src.size() || bytes > src.size() - at)
    throw GgufError(key, at,
                    "its data (" + std::to_string(bytes) + " bytes at byte " + std::to_string(at) +
                        ") lies past the end of the file (" + std::to_string(src.size()) + " bytes)");
  std::vector<std::uint8_t> raw(static_cast<std::size_t>(bytes));
  if (!src.read(at, raw.data(), raw.size())) throw GgufError(key, at, "read error");
  std::vector<float> out(static_cast<std::size_t>(n));
  for (std::size_t k = 0; k < out.size(); ++k) {
    const std::uint8_t* p = raw.data() + k * elem_size;
    if (elem_size == 4) {
      out[k] = pe::bit_cast<float>(static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
                                    static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24);
    } else {
      const auto h = static_cast<std::uint16_t>(p[0] | (p[1] << 8));
      out[k] = t.ggml_type == kGgmlF16 ? half_to_float(h) : pe::bit_cast<float>(static_cast<std::uint32_t>(h) << 16);
    }
  }
  return out;
}

// The first `n` bytes of s, shortened so no UTF-8 sequence is cut in two.
std::string utf8_cut(const std::string& s, std::size_t n) {
  if (n >= s.size()) return s;
  std::size_t end = n;
  // Step back over continuation bytes to the lead byte, then drop that incomplete sequence.
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return s.substr(0, end);
}

// Quoted string for previews: control characters escaped, at most about `max` bytes,
// never cutting a UTF-8 sequence in two.
std::string quoted(const std::string& s, std::size_t max) {
  std::string out = "\"";
  std::size_t k = 0;
  while (k < s.size() && out.size() < max) {
    const unsigned char ch = static_cast<unsigned char>(s[k]);
    if (ch >= 0x80) {
      const std::size_t len = ch >= 0xF0 ? 4 : ch >= 0xE0 ? 3 : ch >= 0xC0 ? 2 : 1;
      out.append(s, k, len);  // a malformed sequence is copied as it is, bytes capped by s
      k += len;
      continue;
    }
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += static_cast<char>(ch);
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch < 0x20 || ch == 0x7f) {
      static const char* digits = "0123456789abcdef";
      out += "\\x";
      out += digits[ch >> 4];
      out += digits[ch & 15];
    } else {
      out += static_cast<char>(ch);
    }
    ++k;
  }
  return out + (k < s.size() ? "…\"" : "\"");
}

std::string number_text(double v, bool is_float32) {
  if (std::isfinite(v) && v == std::floor(v) && std::abs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  return is_float32 ? shortest_text(static_cast<float>(v)) : shortest_text(v);
}

std::string scalar_text(const GgufValue& v, std::size_t max) {
  switch (v.type) {
    case GgufType::Bool: return v.u ? "true" : "false";
    case GgufType::Uint8:
    case GgufType::Uint16:
    case GgufType::Uint32:
    case GgufType::Uint64: return std::to_string(v.u);
    case GgufType::Int8:
    case GgufType::Int16:
    case GgufType::Int32:
    case GgufType::Int64: return std::to_string(v.i);
    case GgufType::Float32:
    case GgufType::Float64: return number_text(v.f, v.type == GgufType::Float32);
    case GgufType::String: return quoted(v.s, max);
    case GgufType::Array: return preview(v, max);
  }
  return "";
}

}  // namespace

const char* ggml_type_name(std::uint32_t ggml_type) {
  const auto t = ggml_traits(ggml_type);
  return t ? t->name : nullptr;
}

std::string type_text(const GgufValue& v) {
  if (!v.is_array()) return to_string(v.type);
  std::string inner = v.element_type == GgufType::Array ? std::string("array") : to_string(v.element_type);
  return "[" + inner + " × " + std::to_string(v.count) + "]";
}

std::string preview(const GgufValue& v, std::size_t max_chars) {
  if (!v.is_array()) {
    std::string s = scalar_text(v, max_chars);
    return s;
  }
  std::string out = "[";
  for (std::size_t k = 0; k < v.items.size(); ++k) {
    if (k) out += ", ";
    if (out.size() >= max_chars) {
      out += "…";
      return out + "]";
    }
    out += scalar_text(v.items[k], max_chars);
  }
  if (v.items.size() < v.count) out += v.items.empty() ? "…" : ", …";
  out += "]";
  if (out.size() > max_chars + 8) out = utf8_cut(out, max_chars) + "…]";
  return out;
}

const GgufKeyValue* GgufFile::find_entry(std::string_view key) const {
  for (const auto& kv : metadata)
    if (kv.key == key) return &kv;
  return nullptr;
}

const GgufValue* GgufFile::find(std::string_view key) const {
  const GgufKeyValue* kv = find_entry(key);
  return kv ? &kv->value : nullptr;
}

const GgufTensorInfo* GgufFile::find_tensor(std::string_view name) const {
  for (const auto& t : tensors)
    if (t.name == name) return &t;
  return nullptr;
}

GgufFile read_gguf(const std::filesystem::path& path) {
  FileSource src(path);
  return Parser(src, path.filename().string()).parse();
}

GgufFile parse_gguf(std::span<const std::uint8_t> bytes, const std::string& name) {
  MemorySource src(bytes);
  return Parser(src, name).parse();
}

GgufFile parse_gguf(const GgufReadFunction& read, std::uint64_t size, const std::string& name) {
  FunctionSource src(read, size);
  return Parser(src, name).parse();
}

std::vector<float> read_gguf_tensor(const GgufReadFunction& read, std::uint64_t size, const GgufFile& file,
                                    const GgufTensorInfo& tensor, std::size_t max_elements) {
  FunctionSource src(read, size);
  return read_tensor(src, file, tensor, max_elements);
}

std::vector<float> read_gguf_tensor(const std::filesystem::path& path, const GgufFile& file, const GgufTensorInfo& tensor,
                                    std::size_t max_elements) {
  FileSource src(path);
  return read_tensor(src, file, tensor, max_elements);
}

std::vector<float> read_gguf_tensor(std::span<const std::uint8_t> bytes, const GgufFile& file, const GgufTensorInfo& tensor,
                                    std::size_t max_elements) {
  MemorySource src(bytes);
  return read_tensor(src, file, tensor, max_elements);
}

}  // namespace pe
