#pragma once
// The safetensors format (huggingface/safetensors README "Format"; the reference reader is
// safetensors/src/tensor.rs `SafeTensors::read_metadata` and `Metadata::validate`):
//   u64 N (little-endian) | N bytes of UTF-8 JSON | the data section
// The JSON maps each tensor name to {"dtype", "shape", "data_offsets": [BEGIN, END]} with
// offsets relative to the data section (byte 8 + N), plus an optional "__metadata__" map of
// string to string. This reader enforces what the reference reader enforces:
//   - 8 ≤ file size; N ≤ 100,000,000 (MAX_HEADER_SIZE); 8 + N ≤ file size;
//   - the header is one JSON object (any JSON whitespace around it; UTF-8);
//   - sorted by data_offsets, the tensors tile the data section from 0: each BEGIN is the
//     previous END, END ≥ BEGIN (no gap, no overlap; the JSON order does not matter);
//   - shape × dtype bits is a whole number of bytes and equals END − BEGIN (overflow checked);
//   - the last END is exactly the end of the file (8 + N + END = file size);
//   - __metadata__ values are strings;
// and, stricter than the reference (the README forbids them): no duplicate names. Every
// tensor's dtype is parsed (all of the reference enum), whether or not it can be read as weights.
#include "pe/weights/module_guard.hpp"
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "pe/weights/byte_source.hpp"

namespace pe {

// tensor.rs `enum Dtype`, spelled as the file spells it (case-sensitive).
enum class SafetensorsDtype {
  BOOL, F4, F6_E2M3, F6_E3M2, U8, I8, F8_E5M2, F8_E4M3, F8_E8M0, F8_E4M3FNUZ, F8_E5M2FNUZ,
  I16, U16, F16, BF16, I32, U32, F32, C64, F64, I64, U64,
};
const char* to_string(SafetensorsDtype dtype);  // "BF16", "F8_E4M3", ...
std::optional<SafetensorsDtype> safetensors_dtype(std::string_view text);
int bit_size(SafetensorsDtype dtype);  // tensor.rs `Dtype::bitsize`: 4 (F4), 6 (F6_*), 8 ... 64

struct SafetensorsTensor {
  std::string name;
  SafetensorsDtype dtype = SafetensorsDtype::F32;
  std::vector<std::uint64_t> shape;  // row-major, as PyTorch: [out_features, in_features] for a Linear weight
  std::uint64_t begin = 0, end = 0;  // data_offsets, relative to the data section
  std::uint64_t elements() const;    // product of shape (1 for a scalar), checked by the parser
};

struct SafetensorsHeader {
  std::string file;                     // for messages
  std::uint64_t header_size = 0;        // N
  std::uint64_t file_size = 0;
  std::vector<SafetensorsTensor> tensors;  // sorted by data_offsets
  std::vector<std::pair<std::string, std::string>> metadata;  // __metadata__, sorted by key

  std::uint64_t data_offset() const { return 8 + header_size; }
  const SafetensorsTensor* find(std::string_view name) const;

  std::unordered_map<std::string, std::size_t> index;  // name → position in tensors
};

inline constexpr std::uint64_t kSafetensorsMaxHeaderSize = 100'000'000;  // tensor.rs MAX_HEADER_SIZE
// Over HTTP: the first range asked for (bytes=0-100000: 97 % of the Hub's headers fit in it,
// so most files need one request) and the longest header accepted (huggingface_hub
// constants.py SAFETENSORS_MAX_HEADER_LENGTH, huggingface.js parse-safetensors-metadata.ts).
inline constexpr std::uint64_t kSafetensorsFirstRead = 100'001;
inline constexpr std::uint64_t kSafetensorsRemoteMaxHeaderSize = 25'000'000;

// The longest header a reader accepts, and who set that limit (for the message).
struct SafetensorsHeaderLimit {
  std::uint64_t bytes = kSafetensorsMaxHeaderSize;
  const char* source = "safetensors MAX_HEADER_SIZE";
};
inline constexpr SafetensorsHeaderLimit kSafetensorsRemoteHeaderLimit{
    kSafetensorsRemoteMaxHeaderSize, "the limit huggingface_hub and huggingface.js set for headers read over HTTP"};

// N from a file's first 8 bytes (little-endian). Precondition: first8.size() >= 8.
std::uint64_t safetensors_header_length(std::span<const std::uint8_t> first8);

// Parses and validates a whole file's bytes (only the header is read; the data section is
// checked for size). Throws WeightsError naming `file`, and the tensor and key where there
// is one.
SafetensorsHeader parse_safetensors_header(std::span<const std::uint8_t> bytes, const std::string& file);
// The same from a byte source, reading only the length and the header: bytes [0, 8) and
// [0, 8 + N). A ranged file's missing bytes throw BytesNotLoaded (load them, parse again);
// its header may be at most kSafetensorsRemoteMaxHeaderSize long (a file held whole:
// kSafetensorsMaxHeaderSize).
SafetensorsHeader parse_safetensors_header(const ByteSource& file);

}  // namespace pe
