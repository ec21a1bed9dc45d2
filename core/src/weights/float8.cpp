// 8-bit float decoding (pe/weights/float8.hpp): each format's fields put together with ldexp,
// which is exact for every code (at most 4 significant bits, exponents well inside float's).
#include "pe/weights/float8.hpp"

#include <cmath>
#include <limits>

namespace pe {

namespace {

// (−1)^sign · (implicit + mantissa / 2^mantissa_bits) · 2^(exponent − bias), with the
// subnormal exponent 1 − bias when the exponent field is 0.
float assemble(int sign, int exponent, int mantissa, int mantissa_bits, int bias) {
  const float fraction = static_cast<float>(mantissa) / static_cast<float>(1 << mantissa_bits);
  const float v = exponent == 0 ? std::ldexp(fraction, 1 - bias) : std::ldexp(1.0f + fraction, exponent - bias);
  return sign ? -v : v;
}

float decode_e4m3(std::uint8_t b) {
  const int sign = b >> 7, exponent = (b >> 3) & 15, mantissa = b & 7;
  if (exponent == 15 && mantissa == 7) return std::numeric_limits<float>::quiet_NaN();  // the only NaN; no infinities
  return assemble(sign, exponent, mantissa, 3, 7);
}

float decode_e5m2(std::uint8_t b) {
  const int sign = b >> 7, exponent = (b >> 2) & 31, mantissa = b & 3;
  if (exponent == 31) {
    if (mantissa != 0) return std::numeric_limits<float>::quiet_NaN();
    return sign ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
  }
  return assemble(sign, exponent, mantissa, 2, 15);
}

template <float (*Decode)(std::uint8_t)>
std::array<float, 256> table_of() {
  std::array<float, 256> t{};
  for (int b = 0; b < 256; ++b) t[static_cast<std::size_t>(b)] = Decode(static_cast<std::uint8_t>(b));
  return t;
}

}  // namespace

const std::array<float, 256>& e4m3_table() {
  static const std::array<float, 256> t = table_of<decode_e4m3>();
  return t;
}

const std::array<float, 256>& e5m2_table() {
  static const std::array<float, 256> t = table_of<decode_e5m2>();
  return t;
}

float e4m3_to_float(std::uint8_t bits) { return e4m3_table()[bits]; }
float e5m2_to_float(std::uint8_t bits) { return e5m2_table()[bits]; }

float e8m0_to_float(std::uint8_t bits) {
  if (bits == 0xFF) return std::numeric_limits<float>::quiet_NaN();
  return std::ldexp(1.0f, static_cast<int>(bits) - 127);  // 2^-127 is a float subnormal: exact
}

}  // namespace pe
