#include "views/view_csv.hpp"

#include <cmath>
#include <cstdio>

namespace app {

std::string csv_number(double v, int significant_digits) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*g", significant_digits, v);
  return buf;
}

std::string csv_text(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::vector<long long> sampled_positions(long long length, std::ostringstream& out) {
  std::vector<long long> p;
  if (length <= kMaxCsvRows) {
    for (long long i = 0; i < length; ++i) p.push_back(i);
  } else {
    out << "# " << length << " positions sampled to " << kMaxCsvRows << " rows\n";
    for (long long i = 0; i < kMaxCsvRows; ++i) p.push_back(std::llround(double(i) * double(length - 1) / double(kMaxCsvRows - 1)));
  }
  return p;
}

}  // namespace app
