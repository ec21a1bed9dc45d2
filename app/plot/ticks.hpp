#pragma once
// Tick placement and labels. Linear axes use 1-2-5 steps; log axes use decades (with
// 2..9 minor ticks when there is room) and label them 10^k with a superscript exponent.
#include <string>
#include <vector>

namespace plot::detail {

struct Tick {
  double value = 0;
  bool major = true;      // minor ticks have no label
  std::string label;      // full label ("0.5", "1e6"), or the base "10" when superscript is set
  std::string superscript;  // exponent drawn raised and smaller ("3" for 10^3); empty if none
};

// At most about max_labels labelled ticks inside [min, max]. `format` (printf with one
// double) overrides the automatic label format.
std::vector<Tick> linear_ticks(double min, double max, int max_labels, const char* format = nullptr);
std::vector<Tick> log_ticks(double min, double max, int max_labels, const char* format = nullptr);

// A readable number for tooltips: integers without decimals, otherwise 6 significant
// digits, scientific for very large/small magnitudes.
std::string format_value(double v);
// Printf-style formatting into a std::string.
std::string format_string(const char* fmt, double v);

}  // namespace plot::detail
