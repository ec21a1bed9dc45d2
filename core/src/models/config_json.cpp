// JSON text → json, with syntax errors named by the key they occur in, and the short value
// text diagnostics quote.
#include <string>

#include "config_resolve.hpp"
#include "pe/base/errors.hpp"

namespace pe::detail {

std::string brief(const json& value) {
  if (value.is_array()) {
    if (value.size() > 6) {
      bool numbers = true;
      for (const auto& v : value) numbers = numbers && v.is_number();
      return "[" + std::to_string(value.size()) + (numbers ? " numbers]" : " values]");
    }
  }
  if (value.is_number_float()) return format_double(value.get<double>());
  std::string s = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (s.size() > 80) s = s.substr(0, 77) + "...";
  return s;
}

void throw_first_error(const Resolution& r) {
  for (const auto& d : r.loaded.diagnostics)
    if (d.severity == Severity::Error) throw ConfigError(d.key, d.message);
  throw ConfigError("", "invalid configuration");
}

namespace {

std::string strip_nlohmann_prefix(std::string what) {
  // "[json.exception.parse_error.101] parse error at line 3, column 1: ..." → from "parse error".
  if (!what.empty() && what.front() == '[') {
    const auto end = what.find("] ");
    if (end != std::string::npos) what = what.substr(end + 2);
  }
  return what;
}

// SAX listener that only tracks where the parser is ("rope_scaling.long_factor[3]"), so a
// syntax error can be reported against the key it occurred in.
class KeyPathTracker : public nlohmann::json_sax<json> {
 public:
  std::string error_path;

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override {
    stack_.push_back({false, {}, 0});
    return true;
  }
  bool key(string_t& k) override {
    if (!stack_.empty()) stack_.back().key = k;
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override {
    stack_.push_back({true, {}, 0});
    return true;
  }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    for (const Frame& f : stack_) {
      if (error_path.size() > 120) {  // absurdly deep input: the start is enough
        error_path += "...";
        break;
      }
      // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "[" + std::string.
      if (f.array) {
        error_path += '[';
        error_path += std::to_string(f.index);
        error_path += ']';
      } else if (!f.key.empty()) {
        if (!error_path.empty()) error_path += '.';
        error_path += f.key;
      }
    }
    return false;
  }

 private:
  struct Frame {
    bool array;
    std::string key;
    std::size_t index;
  };
  // A finished value: the next array slot, or no key until the next one is read (an
  // error between members belongs to the enclosing object).
  bool value() {
    if (stack_.empty()) return true;
    if (stack_.back().array) ++stack_.back().index;
    else stack_.back().key.clear();
    return true;
  }
  bool close() {
    if (!stack_.empty()) stack_.pop_back();
    return value();
  }
  std::vector<Frame> stack_;
};

}  // namespace

json parse_json_text(const std::string& json_text) {
  try {
    return json::parse(json_text);
  } catch (const json::exception& e) {
    // parse_error for syntax, out_of_range for "number overflow" (1e400). Re-read up to
    // the error to say which key it is in; the message keeps nlohmann's line/column.
    KeyPathTracker tracker;
    try {
      json::sax_parse(json_text, &tracker);
    } catch (const json::exception&) {
    }
    std::string message = strip_nlohmann_prefix(e.what());
    if (const auto* pe = dynamic_cast<const json::parse_error*>(&e)) message += " (byte " + std::to_string(pe->byte) + ")";
    throw ConfigError(tracker.error_path, message);
  }
}

}  // namespace pe::detail
