// safetensors header reader: the checks of the reference reader (safetensors/src/tensor.rs
// `read_metadata`, `Metadata::validate`, `TryFrom<HashMetadata>`), each failure a WeightsError
// naming the file, the tensor and the key. The JSON is parsed by nlohmann/json; its lexer
// refuses ill-formed UTF-8, as serde_json's from_str does.
#include "pe/weights/safetensors.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_set>

#include "pe/weights/weights_error.hpp"

namespace pe {

namespace {

using json = nlohmann::json;

struct DtypeInfo {
  SafetensorsDtype dtype;
  const char* name;
  int bits;
};

// tensor.rs `enum Dtype` and `Dtype::bitsize`.
constexpr std::array<DtypeInfo, 22> kDtypes = {{
    {SafetensorsDtype::BOOL, "BOOL", 8},       {SafetensorsDtype::F4, "F4", 4},
    {SafetensorsDtype::F6_E2M3, "F6_E2M3", 6}, {SafetensorsDtype::F6_E3M2, "F6_E3M2", 6},
    {SafetensorsDtype::U8, "U8", 8},           {SafetensorsDtype::I8, "I8", 8},
    {SafetensorsDtype::F8_E5M2, "F8_E5M2", 8}, {SafetensorsDtype::F8_E4M3, "F8_E4M3", 8},
    {SafetensorsDtype::F8_E8M0, "F8_E8M0", 8}, {SafetensorsDtype::F8_E4M3FNUZ, "F8_E4M3FNUZ", 8},
    {SafetensorsDtype::F8_E5M2FNUZ, "F8_E5M2FNUZ", 8},
    {SafetensorsDtype::I16, "I16", 16},        {SafetensorsDtype::U16, "U16", 16},
    {SafetensorsDtype::F16, "F16", 16},        {SafetensorsDtype::BF16, "BF16", 16},
    {SafetensorsDtype::I32, "I32", 32},        {SafetensorsDtype::U32, "U32", 32},
    {SafetensorsDtype::F32, "F32", 32},        {SafetensorsDtype::C64, "C64", 64},
    {SafetensorsDtype::F64, "F64", 64},        {SafetensorsDtype::I64, "I64", 64},
    {SafetensorsDtype::U64, "U64", 64},
}};

const DtypeInfo& info(SafetensorsDtype d) {
  for (const auto& i : kDtypes)
    if (i.dtype == d) return i;
  return kDtypes[0];
}

std::string dtype_list() {
  std::string out;
  for (const auto& i : kDtypes) out += (out.empty() ? "" : ", ") + std::string(i.name);
  return out;
}

std::string u64_text(std::uint64_t v) { return std::to_string(v); }

// A JSON value as a short text for messages.
std::string shown(const json& v) {
  std::string s = v.dump(-1, ' ', false, json::error_handler_t::replace);
  if (s.size() > 80) s = s.substr(0, 80) + "…";
  return s;
}

class HeaderParser {
 public:
  // `bytes`: the file's first bytes, at least its length and header when it has them (the
  // whole file, or the header read on its own from a ranged file); `file_size`: the file's.
  HeaderParser(std::span<const std::uint8_t> bytes, std::uint64_t file_size, const std::string& file, SafetensorsHeaderLimit limit)
      : bytes_(bytes), limit_(limit) {
    out_.file = file;
    out_.file_size = file_size;
  }

  SafetensorsHeader parse() {
    length();
    const json root = document();
    entries(root);
    tile();
    return std::move(out_);
  }

 private:
  [[noreturn]] void fail(const std::string& tensor, const std::string& key, const std::string& message) const {
    throw WeightsError(out_.file, tensor, key, message);
  }

  void length() {
    const std::uint64_t size = out_.file_size;
    if (size < 8 || bytes_.size() < 8)
      fail("", "", "a safetensors file starts with an 8-byte header length; this one has " + u64_text(size) + " bytes in all");
    const std::uint64_t n = safetensors_header_length(bytes_);
    if (n > limit_.bytes)
      fail("", "", "the header length is " + u64_text(n) + " bytes, over the limit of " + u64_text(limit_.bytes) + " (" +
                       limit_.source + "): not a safetensors file, or a corrupt one");
    if (n > size - 8)
      fail("", "", "the header claims " + u64_text(n) + " bytes but only " + u64_text(size - 8) +
                       " follow the length (file size " + u64_text(size) + "): a truncated file or not safetensors");
    if (n > bytes_.size() - 8) fail("", "", "the header's " + u64_text(n) + " bytes were not all read");
    out_.header_size = n;
  }

  json document() {
    const auto* first = reinterpret_cast<const char*>(bytes_.data()) + 8;
    const std::string_view text(first, static_cast<std::size_t>(out_.header_size));
    // Duplicate names: the README forbids them; nlohmann would keep the last silently.
    std::unordered_set<std::string> seen;
    std::string duplicate;
    const json::parser_callback_t on_event = [&](int depth, json::parse_event_t event, json& parsed) {
      if (event == json::parse_event_t::key && depth == 1 && duplicate.empty() && !seen.insert(parsed.get<std::string>()).second)
        duplicate = parsed.get<std::string>();
      return true;
    };
    json root;
    try {
      root = json::parse(text, on_event);
    } catch (const json::parse_error& e) {
      fail("", "header", "not valid JSON (byte " + u64_text(8 + e.byte - (e.byte > 0 ? 1 : 0)) + " of the file): " + e.what());
    } catch (const json::exception& e) {
      fail("", "header", std::string("not valid JSON: ") + e.what());  // e.g. out_of_range.406, a number past double's range
    }
    if (!duplicate.empty()) fail(duplicate, "", "appears twice in the header (the format forbids duplicate names)");
    if (!root.is_object()) fail("", "header", "must be a JSON object, got " + std::string(root.type_name()));
    return root;
  }

  std::uint64_t unsigned_value(const json& v, const std::string& tensor, const std::string& key) const {
    if (v.is_number_unsigned()) return v.get<std::uint64_t>();
    if (v.is_number_integer() && v.get<std::int64_t>() >= 0) return static_cast<std::uint64_t>(v.get<std::int64_t>());
    fail(tensor, key, "expected a non-negative integer, got " + shown(v));
  }

  void entries(const json& root) {
    out_.tensors.reserve(root.size());
    for (const auto& [name, value] : root.items()) {
      if (name == "__metadata__") {
        metadata(value);
        continue;
      }
      if (!value.is_object()) fail(name, name, "expected {\"dtype\", \"shape\", \"data_offsets\"}, got " + shown(value));
      SafetensorsTensor t;
      t.name = name;
      const auto dtype = value.find("dtype");
      if (dtype == value.end()) fail(name, name + ".dtype", "missing");
      if (!dtype->is_string()) fail(name, name + ".dtype", "expected a string, got " + shown(*dtype));
      const auto d = safetensors_dtype(dtype->get<std::string>());
      if (!d) fail(name, name + ".dtype", "unknown dtype " + shown(*dtype) + " (safetensors knows " + dtype_list() + ")");
      t.dtype = *d;
      const auto shape = value.find("shape");
      if (shape == value.end()) fail(name, name + ".shape", "missing");
      if (!shape->is_array()) fail(name, name + ".shape", "expected an array of sizes, got " + shown(*shape));
      for (std::size_t k = 0; k < shape->size(); ++k)
        t.shape.push_back(unsigned_value((*shape)[k], name, name + ".shape[" + std::to_string(k) + "]"));
      const auto offsets = value.find("data_offsets");
      if (offsets == value.end()) fail(name, name + ".data_offsets", "missing");
      if (!offsets->is_array() || offsets->size() != 2)
        fail(name, name + ".data_offsets", "expected [BEGIN, END], got " + shown(*offsets));
      t.begin = unsigned_value((*offsets)[0], name, name + ".data_offsets[0]");
      t.end = unsigned_value((*offsets)[1], name, name + ".data_offsets[1]");
      if (t.end < t.begin)
        fail(name, name + ".data_offsets", "[" + u64_text(t.begin) + ", " + u64_text(t.end) + "] ends before it begins");
      out_.tensors.push_back(std::move(t));
    }
  }

  void metadata(const json& value) {
    if (!value.is_object()) fail("", "__metadata__", "expected a map of strings to strings, got " + shown(value));
    for (const auto& [key, v] : value.items()) {
      if (!v.is_string()) fail("", "__metadata__." + key, "expected a string (the format allows only strings here), got " + shown(v));
      out_.metadata.emplace_back(key, v.get<std::string>());
    }
  }

  // Byte count of a tensor from its shape and dtype, overflow-checked (tensor.rs
  // ValidationOverflow, MisalignedSlice, TensorInvalidInfo).
  std::uint64_t expected_bytes(const SafetensorsTensor& t) const {
    constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t elements = 1;
    for (const std::uint64_t d : t.shape) {
      if (d != 0 && elements > kMax / d) fail(t.name, t.name + ".shape", "the element count overflows 64 bits");
      elements *= d;
    }
    const auto bits = static_cast<std::uint64_t>(bit_size(t.dtype));
    if (elements > kMax / bits) fail(t.name, t.name + ".shape", "the bit count overflows 64 bits");
    if (elements * bits % 8 != 0)
      fail(t.name, t.name + ".shape", u64_text(elements) + " elements of " + to_string(t.dtype) + " are not a whole number of bytes");
    return elements * bits / 8;
  }

  static std::string shape_text(const SafetensorsTensor& t) {
    std::string s = "[";
    for (std::size_t k = 0; k < t.shape.size(); ++k) s += (k ? ", " : "") + u64_text(t.shape[k]);
    return s + "]";
  }

  void tile() {
    auto& ts = out_.tensors;
    std::stable_sort(ts.begin(), ts.end(), [](const SafetensorsTensor& a, const SafetensorsTensor& b) {
      return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
    });
    const std::uint64_t data = out_.file_size - out_.data_offset();  // length() checked 8 + N <= file size
    std::uint64_t covered = 0;
    const SafetensorsTensor* previous = nullptr;
    for (const auto& t : ts) {
      const std::string range = "data_offsets [" + u64_text(t.begin) + ", " + u64_text(t.end) + ")";
      if (t.begin < covered)
        fail(t.name, t.name + ".data_offsets",
             range + " overlaps " + previous->name + " [" + u64_text(previous->begin) + ", " + u64_text(previous->end) +
                 ") (tensors must tile the data section without overlap)");
      if (t.begin > covered)
        fail(t.name, t.name + ".data_offsets",
             range + " leaves a gap: " + (previous ? "the previous tensor, " + previous->name + ", ends at " : std::string("the data section starts at ")) +
                 u64_text(covered) + " (tensors must tile the data section from 0 without gaps)");
      const std::uint64_t bytes = expected_bytes(t);
      if (t.end - t.begin != bytes)
        fail(t.name, t.name + ".data_offsets",
             range + " holds " + u64_text(t.end - t.begin) + " bytes, but shape " + shape_text(t) + " of " + to_string(t.dtype) +
                 " needs " + u64_text(bytes));
      if (t.end > data)
        fail(t.name, t.name + ".data_offsets",
             range + " ends past the end of the file: the data section has " + u64_text(data) + " bytes (file size " +
                 u64_text(out_.file_size) + ", data from byte " + u64_text(out_.data_offset()) + "): a truncated file");
      covered = t.end;
      previous = &t;
    }
    if (covered != data)
      fail("", "", "the tensors end at data byte " + u64_text(covered) + " but the file has " + u64_text(data - covered) +
                       " more bytes after them (the format allows none)");
    out_.index.reserve(ts.size());
    for (std::size_t k = 0; k < ts.size(); ++k) out_.index.emplace(ts[k].name, k);
    std::sort(out_.metadata.begin(), out_.metadata.end());
  }

  std::span<const std::uint8_t> bytes_;
  SafetensorsHeaderLimit limit_;
  SafetensorsHeader out_;
};

}  // namespace

const char* to_string(SafetensorsDtype dtype) { return info(dtype).name; }

std::optional<SafetensorsDtype> safetensors_dtype(std::string_view text) {
  for (const auto& i : kDtypes)
    if (text == i.name) return i.dtype;
  return std::nullopt;
}

int bit_size(SafetensorsDtype dtype) { return info(dtype).bits; }

std::uint64_t SafetensorsTensor::elements() const {
  std::uint64_t n = 1;
  for (const std::uint64_t d : shape) n *= d;  // the parser checked the product fits
  return n;
}

const SafetensorsTensor* SafetensorsHeader::find(std::string_view name) const {
  const auto it = index.find(std::string(name));
  return it == index.end() ? nullptr : &tensors[it->second];
}

std::uint64_t safetensors_header_length(std::span<const std::uint8_t> first8) {
  std::uint64_t n = 0;
  for (int k = 7; k >= 0; --k) n = (n << 8) | first8[static_cast<std::size_t>(k)];
  return n;
}

SafetensorsHeader parse_safetensors_header(std::span<const std::uint8_t> bytes, const std::string& file) {
  return HeaderParser(bytes, bytes.size(), file, {}).parse();
}

SafetensorsHeader parse_safetensors_header(const ByteSource& file) {
  const bool whole = file.bytes().size() == file.size();
  const SafetensorsHeaderLimit limit = whole ? SafetensorsHeaderLimit{} : kSafetensorsRemoteHeaderLimit;
  // The length first, then only the header: a ranged file loads these two ranges and no more.
  std::span<const std::uint8_t> first;
  if (file.size() >= 8 || !file.size_known()) first = file.read(0, 8);  // a ranged file of unknown size: loaded first
  std::uint64_t n = first.size() == 8 ? safetensors_header_length(first) : 0;
  if (n > limit.bytes || n > file.size() - std::min<std::uint64_t>(file.size(), 8)) n = 0;  // the parser names the problem
  return HeaderParser(first.size() == 8 && n > 0 ? file.read(0, 8 + n) : first, file.size(), file.name(), limit).parse();
}

}  // namespace pe
