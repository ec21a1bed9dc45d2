#include "pe/base/number_text.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace pe {
namespace detail {
namespace {

// The shortest digit string (with its decimal exponent) that reads back to `value`, found
// by asking printf for 1, 2, … significant digits (correctly rounded, so the first that
// round-trips is the one to_chars's shortest representation has), then laid out as
// to_chars lays it out: fixed or scientific, whichever is shorter, fixed on a tie.
template <class T>
std::string shortest(T value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0) return std::signbit(value) ? "-0" : "0";
  constexpr int kMaxDigits = std::is_same_v<T, float> ? 9 : 17;
  char buf[64];
  for (int digits = 1; digits <= kMaxDigits; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*e", digits - 1, static_cast<double>(value));
    const T back = std::is_same_v<T, float> ? static_cast<T>(std::strtof(buf, nullptr)) : static_cast<T>(std::strtod(buf, nullptr));
    if (back == value || digits == kMaxDigits) break;
  }
  // buf: [-]d[.ddd]e±XX
  std::string text = buf;
  const bool negative = text[0] == '-';
  if (negative) text.erase(0, 1);
  const std::size_t e = text.find('e');
  const int exponent = std::atoi(text.c_str() + e + 1);
  std::string mantissa = text.substr(0, e);
  std::string significant;
  for (char c : mantissa)
    if (c != '.') significant += c;
  while (significant.size() > 1 && significant.back() == '0') significant.pop_back();
  const int n = int(significant.size());

  std::string scientific = significant.substr(0, 1);
  if (n > 1) scientific += "." + significant.substr(1);
  char exponent_text[16];
  std::snprintf(exponent_text, sizeof exponent_text, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
  scientific += exponent_text;

  std::string fixed;
  if (exponent >= n - 1) {
    // An integer: of the texts this long, to_chars writes the one nearest the value, which is
    // its exact digits ("3186255360" for that float, not the shortest digits padded "3186255400").
    char whole[400];
    std::snprintf(whole, sizeof whole, "%.0f", std::fabs(static_cast<double>(value)));
    fixed = whole;
  } else if (exponent >= 0) {
    fixed = significant.substr(0, std::size_t(exponent + 1)) + "." + significant.substr(std::size_t(exponent + 1));
  } else {
    fixed = "0." + std::string(std::size_t(-exponent - 1), '0') + significant;
  }
  const std::string& chosen = fixed.size() <= scientific.size() ? fixed : scientific;
  return negative ? "-" + chosen : chosen;
}

}  // namespace

std::string shortest_text_portable(double value) { return shortest(value); }
std::string shortest_text_portable(float value) { return shortest(value); }

std::optional<double> parse_double_portable(std::string_view text) {
  // from_chars' general format, checked here so that strtod (C locale: the only one a
  // browser has, and the one the desktop app never leaves) sees nothing else.
  std::size_t i = 0;
  if (i < text.size() && text[i] == '-') ++i;
  std::size_t digits = 0;
  bool dot = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      ++digits;
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  if (digits == 0) return std::nullopt;  // also "inf" and "nan": not finite anyway
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    std::size_t j = i + 1;
    if (j < text.size() && (text[j] == '+' || text[j] == '-')) ++j;
    const std::size_t first = j;
    while (j < text.size() && text[j] >= '0' && text[j] <= '9') ++j;
    if (j == first) return std::nullopt;
    i = j;
  }
  if (i != text.size()) return std::nullopt;
  const std::string copy(text);
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || errno == ERANGE || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace detail

#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
std::string shortest_text(double value) {
  char buf[64];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, value).ptr);
}
std::string shortest_text(float value) {
  char buf[64];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, value).ptr);
}
std::optional<double> parse_double(std::string_view text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::general);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}
#else
std::string shortest_text(double value) { return detail::shortest_text_portable(value); }
std::string shortest_text(float value) { return detail::shortest_text_portable(value); }
std::optional<double> parse_double(std::string_view text) { return detail::parse_double_portable(text); }
#endif

}  // namespace pe
