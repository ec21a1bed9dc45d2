// pe::shortest_text / parse_double / bit_cast: the portable ways (used where the standard
// library lacks floating-point to_chars / from_chars, as in the browser build's libc++ 13)
// give exactly what the standard library gives where it has them.
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "pe/base/number_text.hpp"

namespace {

std::string library_text(double v) {
  char buf[64];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

std::string library_text(float v) {
  char buf[64];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

TEST(NumberText, KnownValuesReadAsToCharsWritesThem) {
  EXPECT_EQ(pe::shortest_text(0.1), "0.1");
  EXPECT_EQ(pe::shortest_text(500000.0), "5e+05");
  EXPECT_EQ(pe::shortest_text(123.456), "123.456");
  EXPECT_EQ(pe::shortest_text(1e-05), "1e-05");
  EXPECT_EQ(pe::shortest_text(0.001), "0.001");
  EXPECT_EQ(pe::shortest_text(100.0), "100");
  EXPECT_EQ(pe::shortest_text(-2.5), "-2.5");
  EXPECT_EQ(pe::shortest_text(0.0), "0");
  EXPECT_EQ(pe::shortest_text(std::numeric_limits<double>::infinity()), "inf");
  for (double v : {0.1, 500000.0, 123.456, 1e-05, 0.001, 100.0, -2.5, 0.0, -0.0, 1e22, 1e-300, 5e-324, 1.7976931348623157e308,
                   10000.0, 3.14159, 2.0 / 3.0, 1e15, 1e16, 123456789012345680.0})
    EXPECT_EQ(pe::detail::shortest_text_portable(v), library_text(v)) << v;
}

TEST(NumberText, ThePortableWayMatchesTheLibraryOnRandomDoublesAndFloats) {
  std::mt19937_64 rng(29);
  for (int k = 0; k < 20000; ++k) {
    const double d = pe::bit_cast<double>(rng());
    if (std::isfinite(d)) {
      ASSERT_EQ(pe::detail::shortest_text_portable(d), library_text(d)) << d;
    }
    const float f = pe::bit_cast<float>(static_cast<std::uint32_t>(rng()));
    if (std::isfinite(f)) {
      ASSERT_EQ(pe::detail::shortest_text_portable(f), library_text(f)) << f;
    }
    // Numbers people type: a few digits at some power of ten.
    const double typed = double(rng() % 100000) * std::pow(10.0, int(rng() % 24) - 12);
    ASSERT_EQ(pe::detail::shortest_text_portable(typed), library_text(typed)) << typed;
  }
}

TEST(NumberText, ParsingAcceptsWhatFromCharsAccepts) {
  const std::vector<std::string> texts = {"1",    "-1",   "0.5",  ".5",   "5.",   "1e3",  "1E-3", "1e+3", "-0",    "007",
                                          "1e",   "e3",   "",     "-",    ".",    "+1",   " 1",   "1 ",   "0x10",  "inf",
                                          "nan",  "1e999", "1e-999", "1.5.2", "12a", "1,5", "3.14159265358979323846"};
  for (const std::string& t : texts) {
    double value = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value, std::chars_format::general);
    const bool library_ok = ec == std::errc() && end == t.data() + t.size() && std::isfinite(value);
    const auto portable = pe::detail::parse_double_portable(t);
    EXPECT_EQ(portable.has_value(), library_ok) << "'" << t << "'";
    if (portable && library_ok) {
      EXPECT_EQ(*portable, value) << t;
    }
    EXPECT_EQ(pe::parse_double(t).has_value(), library_ok) << "'" << t << "'";
  }
}

TEST(NumberText, BitCastKeepsTheBits) {
  EXPECT_EQ(pe::bit_cast<std::uint32_t>(1.0f), 0x3F800000u);
  EXPECT_EQ(pe::bit_cast<float>(0xC0000000u), -2.0f);
  EXPECT_EQ(pe::bit_cast<std::uint64_t>(1.0), 0x3FF0000000000000ull);
}

}  // namespace
