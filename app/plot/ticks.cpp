#include "ticks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace plot::detail {
namespace {

// Step from the 1-2-5 sequence that is at least raw.
double nice_step(double raw) {
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double n = raw / magnitude;
  const double m = n <= 1.0 ? 1.0 : n <= 2.0 ? 2.0 : n <= 5.0 ? 5.0 : 10.0;
  return m * magnitude;
}

std::string strip_negative_zero(std::string s) {
  // "-0", "-0.0" ... read as noise on an axis.
  if (!s.empty() && s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);
  return s;
}

// "2.5e6" rather than printf's "2.500000e+06".
std::string compact_scientific(double v, int significant) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*e", std::max(0, significant - 1), v);
  std::string s = buffer;
  const size_t e = s.find('e');
  std::string mantissa = s.substr(0, e);
  if (mantissa.find('.') != std::string::npos) {
    while (!mantissa.empty() && mantissa.back() == '0') mantissa.pop_back();
    if (!mantissa.empty() && mantissa.back() == '.') mantissa.pop_back();
  }
  const int exponent = std::atoi(s.c_str() + e + 1);
  return mantissa + "e" + std::to_string(exponent);
}

}  // namespace

std::string format_string(const char* fmt, double v) {
  char buffer[128];
  std::snprintf(buffer, sizeof buffer, fmt, v);
  return buffer;
}

std::string format_value(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  const double a = std::abs(v);
  if (v == std::round(v) && a < 1e9) return strip_negative_zero(format_string("%.0f", v));
  if (a != 0.0 && (a >= 1e6 || a < 1e-4)) return compact_scientific(v, 6);
  return strip_negative_zero(format_string("%.6g", v));
}

std::vector<Tick> linear_ticks(double min, double max, int max_labels, const char* format) {
  std::vector<Tick> ticks;
  if (!(max > min) || !std::isfinite(min) || !std::isfinite(max)) return ticks;
  max_labels = std::max(max_labels, 2);
  double step = nice_step((max - min) / max_labels);
  // An integer format ("%.0f") would repeat labels for fractional steps.
  if (format != nullptr && std::strstr(format, ".0f") != nullptr) step = std::max(step, 1.0);
  const double first = std::ceil(min / step - 1e-9) * step;
  const double largest = std::max(std::abs(min), std::abs(max));
  const bool scientific = largest >= 1e6 || (largest < 1e-3);
  const int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9)));
  const int significant =
      std::clamp(static_cast<int>(std::floor(std::log10(largest)) - std::floor(std::log10(step) + 1e-9)) + 1, 1, 8);
  for (int k = 0; k < 1000; ++k) {
    double v = first + k * step;
    if (v > max + step * 1e-9) break;
    if (std::abs(v) < step * 1e-9) v = 0.0;  // exact zero instead of 1e-17
    Tick t;
    t.value = v;
    if (format != nullptr)
      t.label = format_string(format, v);
    else if (scientific && v != 0.0)
      t.label = compact_scientific(v, significant);
    else {
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, "%.*f", decimals, v);
      t.label = strip_negative_zero(buffer);
    }
    ticks.push_back(std::move(t));
  }
  return ticks;
}

std::vector<Tick> log_ticks(double min, double max, int max_labels, const char* format) {
  std::vector<Tick> ticks;
  if (!(max > min) || !(min > 0) || !std::isfinite(max)) return ticks;
  const double lo = std::log10(min), hi = std::log10(max);
  const int first_decade = static_cast<int>(std::ceil(lo - 1e-9));
  const int last_decade = static_cast<int>(std::floor(hi + 1e-9));
  const int decades = last_decade - first_decade + 1;
  if (decades < 2) {
    // Less than a decade visible: decades alone would leave the axis bare.
    return linear_ticks(min, max, max_labels, format);
  }
  max_labels = std::max(max_labels, 2);
  // Label every decade, or every 2nd/5th/10th... when they would crowd.
  int stride = 1;
  while (decades / stride > max_labels) stride = stride == 1 ? 2 : stride == 2 ? 5 : stride * 2;
  const bool plain = first_decade >= -2 && last_decade <= 4;
  const bool minors = stride == 1 && decades <= max_labels * 2;
  for (int d = first_decade - 1; d <= last_decade; ++d) {
    const double decade = std::pow(10.0, d);
    if (d >= first_decade && (d % stride + stride) % stride == 0) {
      Tick t;
      t.value = decade;
      if (format != nullptr) {
        t.label = format_string(format, decade);
      } else if (plain) {
        t.label = format_value(decade);
      } else {
        t.label = "10";
        t.superscript = std::to_string(d);
      }
      ticks.push_back(std::move(t));
    } else if (d >= first_decade) {
      ticks.push_back({decade, false, "", ""});
    }
    if (minors)
      for (int m = 2; m <= 9; ++m) {
        const double v = m * decade;
        if (v >= min && v <= max) ticks.push_back({v, false, "", ""});
      }
  }
  return ticks;
}

}  // namespace plot::detail
