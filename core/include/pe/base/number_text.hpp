#pragma once
// Numbers to text and back, the same in every build. std::to_chars / std::from_chars for
// floating point and std::bit_cast are C++17/20, but not every standard library has them
// (emscripten 3.1.6's libc++ 13, which the browser build uses, has none of the three):
// these give their results with or without them.
#include "pe/base/module_guard.hpp"

#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace pe {

// The shortest text that reads back to the same value, as std::to_chars(first, last, value)
// writes it: fixed or scientific, whichever is shorter (fixed on a tie): "0.1", "500000" is
// "5e+05", "1e-05", "123.456"; "inf", "-inf", "nan".
std::string shortest_text(double value);
std::string shortest_text(float value);

// A whole text in std::from_chars' general format (an optional '-', digits with at most one
// '.', an optional exponent; no spaces, no '+', no hex) as a finite double; nullopt for
// anything else, and for values out of double's range.
std::optional<double> parse_double(std::string_view text);

// std::bit_cast: the same bits as another trivially copyable type of the same size.
template <class To, class From>
To bit_cast(const From& from) noexcept {
  static_assert(sizeof(To) == sizeof(From), "bit_cast needs types of the same size");
  static_assert(std::is_trivially_copyable_v<To> && std::is_trivially_copyable_v<From>);
  To to;
  std::memcpy(&to, &from, sizeof to);
  return to;
}

namespace detail {
// The portable ways, used where the standard library lacks to_chars / from_chars for
// floating point; public so the tests compare them with the library's where it has them.
std::string shortest_text_portable(double value);
std::string shortest_text_portable(float value);
std::optional<double> parse_double_portable(std::string_view text);
}  // namespace detail

}  // namespace pe
