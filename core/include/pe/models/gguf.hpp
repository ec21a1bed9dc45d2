#pragma once
// Reading GGUF files (llama.cpp's model format): the header, every metadata key/value and
// the tensor infos — never the weights. A 40 GB file opens in milliseconds because only
// the header is read; every count and length is checked against the bytes the file really
// has before anything is allocated.
//
// Layout (ggml/docs/gguf.md; ggml/src/gguf.cpp `gguf_init_from_reader`), all little-endian:
//   "GGUF" | u32 version | i64 tensor_count | i64 kv_count
//   kv_count × { string key | u32 value_type | value }
//   tensor_count × { string name | u32 n_dims | n_dims × i64 ne | u32 ggml_type | u64 offset }
//   padding to general.alignment (default 32) | tensor data (offsets relative to here)
// where string = u64 length + bytes, and an array value = u32 element_type | u64 count | elements.
#include "pe/models/module_guard.hpp"
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pe/models/config.hpp"
#include "pe/models/diagnostics.hpp"

namespace pe {

// A malformed or unsupported GGUF file. key() names the metadata key, tensor or header
// field ("magic", "version", "tensor_count", "llama.rope.freq_base", "rope_freqs.weight");
// offset() is the byte position in the file where the problem is. what() carries both.
class GgufError : public ConfigError {
 public:
  // kNoOffset: the problem has no place in the file (a key that is missing, a file that
  // cannot be opened); what() then carries no byte position.
  static constexpr std::uint64_t kNoOffset = ~std::uint64_t{0};
  GgufError(std::string key, std::uint64_t offset, std::string message);
  std::uint64_t offset() const noexcept { return offset_; }

 private:
  std::uint64_t offset_;
};

// Metadata value types (ggml/include/gguf.h `enum gguf_type`; the numbers are the file's).
enum class GgufType : std::uint32_t {
  Uint8 = 0,
  Int8 = 1,
  Uint16 = 2,
  Int16 = 3,
  Uint32 = 4,
  Int32 = 5,
  Float32 = 6,
  Bool = 7,
  String = 8,
  Array = 9,
  Uint64 = 10,
  Int64 = 11,
  Float64 = 12,
};
const char* to_string(GgufType t);  // "uint8", "float32", "string", "array", ...

// One metadata value. Scalars fill u / i / f / s by type; arrays keep their declared
// `count` and the first elements in `items` (nested arrays are arrays of GgufValue).
struct GgufValue {
  GgufType type = GgufType::Uint32;
  std::uint64_t u = 0;  // Uint8/16/32/64; Bool as 0 / 1
  std::int64_t i = 0;   // Int8/16/32/64
  double f = 0.0;       // Float32/64
  std::string s;        // String
  GgufType element_type = GgufType::Uint8;  // Array
  std::uint64_t count = 0;                  // Array: elements in the file
  std::vector<GgufValue> items;             // Array: the first ones (see kGgufKept*)
  bool truncated = false;                   // a string cut short or array elements not kept

  bool is_array() const { return type == GgufType::Array; }
  bool is_string() const { return type == GgufType::String; }
  // Any integer type (or bool) as a signed value; nullopt for other types or a uint64 above
  // INT64_MAX.
  std::optional<long long> as_integer() const;
  // Any integer or float type as a double; nullopt for strings, arrays and bool.
  std::optional<double> as_number() const;
};

// Short readable text of a value for listings: 500000, "llama", true,
// [uint32 × 4] [16, 24, 24, 0], [string × 128256] ["!", "\"", "#", …]. Never longer than
// max_chars (+ "…").
std::string preview(const GgufValue& value, std::size_t max_chars = 96);
// The value's type as a listing shows it: "uint32", "string", "[float32 × 64]".
std::string type_text(const GgufValue& value);

struct GgufKeyValue {
  std::string key;
  GgufValue value;
  std::uint64_t offset = 0;  // where the key's record starts in the file
};

struct GgufTensorInfo {
  std::string name;
  std::vector<std::int64_t> shape;  // ne[0] (fastest) ... ne[n_dims-1]
  std::uint32_t ggml_type = 0;      // ggml.h `enum ggml_type` (0 = F32, 1 = F16, 30 = BF16, ...)
  std::uint64_t offset = 0;         // relative to the start of the data section
  std::uint64_t byte_size = 0;      // from the type's block size; 0 when the type is unknown
  std::uint64_t info_offset = 0;    // where its record starts in the file
  std::int64_t elements() const;    // product of shape (1 for a 0-d tensor)
};

// ggml's name for a tensor type ("f32", "q4_K", "bf16", ...; gguf-py constants.py
// GGMLQuantizationType), or nullptr for a number this reader does not know.
const char* ggml_type_name(std::uint32_t ggml_type);

struct GgufFile {
  std::string name;                // file name, for messages
  std::uint32_t version = 0;       // 2 or 3
  std::uint64_t file_size = 0;     // bytes actually present
  std::uint64_t alignment = 32;    // general.alignment
  std::uint64_t data_offset = 0;   // start of the tensor data section
  std::uint64_t data_size = 0;     // end of the last tensor's bytes, relative to data_offset
  std::vector<GgufKeyValue> metadata;  // in file order
  std::vector<GgufTensorInfo> tensors;  // in file order
  // What the reader noticed without refusing the file: data past the end of the file
  // (header-only or partial download), tensors llama.cpp would refuse, unknown types.
  std::vector<Diagnostic> diagnostics;

  const GgufValue* find(std::string_view key) const;
  const GgufKeyValue* find_entry(std::string_view key) const;
  const GgufTensorInfo* find_tensor(std::string_view name) const;
  // Whether every declared tensor byte is inside the file.
  bool data_complete() const { return data_offset + data_size <= file_size; }
};

// What is kept of values (everything is still parsed and checked): a tokenizer's 128k
// strings are counted, not stored.
inline constexpr std::size_t kGgufKeptArrayItems = 4096;       // numeric / bool elements
inline constexpr std::size_t kGgufKeptStringArrayItems = 64;   // string and nested-array elements
inline constexpr std::size_t kGgufKeptStringBytes = 1u << 20;  // bytes of one string
// Hard limits: larger values are refused as corrupt.
inline constexpr std::uint64_t kGgufMaxStringLength = 1ull << 30;  // llama.cpp GGUF_MAX_STRING_LENGTH
inline constexpr std::uint64_t kGgufMaxKeyLength = 65535;         // gguf.md: keys are at most 2^16 − 1 bytes
inline constexpr int kGgufMaxArrayDepth = 8;                      // arrays of arrays of ...
inline constexpr std::uint32_t kGgufMaxDims = 4;                  // GGML_MAX_DIMS

// Reads a GGUF file's header (metadata and tensor infos); never the tensor data.
// Throws GgufError naming the key / field and the byte offset.
GgufFile read_gguf(const std::filesystem::path& path);
// The same for bytes in memory (tests, fuzzing); `name` appears in messages.
GgufFile parse_gguf(std::span<const std::uint8_t> bytes, const std::string& name = "memory.gguf");
// The same for a file of `size` bytes read through a function (a file loaded in ranges
// elsewhere): read(offset, dst, n) copies n bytes from inside [0, size), or throws — an
// exception of the caller's saying the bytes are not at hand yet passes through unchanged.
using GgufReadFunction = std::function<void(std::uint64_t offset, void* dst, std::size_t n)>;
GgufFile parse_gguf(const GgufReadFunction& read, std::uint64_t size, const std::string& name);

// The values of a small floating-point tensor (F32, F16 or BF16, every dimension but the
// first 1), read from its place in the data section. Throws GgufError when the tensor has
// another type or shape, more than max_elements values, or lies past the end of the file.
std::vector<float> read_gguf_tensor(const std::filesystem::path& path, const GgufFile& file,
                                    const GgufTensorInfo& tensor, std::size_t max_elements);
std::vector<float> read_gguf_tensor(std::span<const std::uint8_t> bytes, const GgufFile& file,
                                    const GgufTensorInfo& tensor, std::size_t max_elements);
std::vector<float> read_gguf_tensor(const GgufReadFunction& read, std::uint64_t size, const GgufFile& file,
                                    const GgufTensorInfo& tensor, std::size_t max_elements);

}  // namespace pe
