#include "pe/weights/weights_error.hpp"

#include <utility>

namespace pe {

namespace {

// File and tensor names come from the input (a JSON header, a GGUF string): control bytes
// are escaped and long names cut, so a message stays one readable line.
std::string printable(const std::string& s, std::size_t max = 512) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (const char c : s) {
    if (out.size() >= max) return out + "…";
    const auto ch = static_cast<unsigned char>(c);
    if (ch < 0x20 || ch == 0x7f) {
      out += "\\x";
      out += digits[ch >> 4];
      out += digits[ch & 15];
    } else {
      out += c;
    }
  }
  return out;
}

std::string located(const std::string& file, const std::string& tensor, const std::string& key_path,
                    const std::string& message) {
  std::string out = printable(file.empty() ? std::string("(weights)") : file) + ": ";
  if (!tensor.empty()) out += "tensor " + printable(tensor) + ": ";
  if (!key_path.empty() && key_path != tensor) out += printable(key_path) + ": ";
  return out + printable(message, 4096);
}

}  // namespace

WeightsError::WeightsError(std::string file, std::string tensor, std::string message)
    : WeightsError(std::move(file), std::move(tensor), "", std::move(message)) {}

WeightsError::WeightsError(std::string file, std::string tensor, std::string key_path, std::string message)
    : ConfigError("", located(file, tensor, key_path, message)),
      file_(std::move(file)),
      tensor_(std::move(tensor)),
      key_path_(std::move(key_path)) {}

}  // namespace pe
