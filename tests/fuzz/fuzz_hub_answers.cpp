// The Hub's answers (pe/hub): the header parsers on any text, and a fetch driven through
// whatever a server answers. The input is answers separated by a NUL byte, each
//   STATUS\nName: value\n...\n\nBODY
// served in order to one fetch of a range (the first input byte says which range and whether
// a token is set). Header values are also fed to each parser directly. A fetch must end in a
// result or a HubError (never another exception, a crash or a hang); a result of a range must
// be exactly the bytes asked for (206, its Content-Range agreeing); the token must never be
// sent to a host other than the endpoint's; at most 10 redirects and 5 retries are followed.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "../unit/hub_test_transport.hpp"
#include "fuzz_common.hpp"
#include "pe/hub/hub_answer.hpp"
#include "pe/hub/hub_client.hpp"
#include "pe/hub/hub_url.hpp"

namespace {

pe::HttpResponse parse_answer(std::string_view text) {
  pe::HttpResponse r;
  const auto blank = text.find("\n\n");
  const std::string_view head = text.substr(0, blank);
  if (blank != std::string_view::npos) r.body.assign(text.begin() + static_cast<std::ptrdiff_t>(blank + 2), text.end());
  std::size_t at = 0;
  bool first = true;
  while (at <= head.size()) {
    const auto end = head.find('\n', at);
    const std::string_view line = head.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
    if (first) {
      int status = 0;
      for (char c : line.substr(0, 3))
        if (c >= '0' && c <= '9') status = status * 10 + (c - '0');
      r.status = status;
      if (status == 0) r.error = "fuzzed transport error";
      first = false;
    } else if (const auto colon = line.find(':'); colon != std::string_view::npos) {
      std::string name(line.substr(0, colon));
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      std::string_view value = line.substr(colon + 1);
      while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
      r.headers.push_back({name, std::string(value)});
    }
    if (end == std::string_view::npos) break;
    at = end + 1;
  }
  return r;
}

void parse_headers_alone(const pe::HttpResponse& r) {
  for (const auto& h : r.headers) {
    if (const auto l = pe::parse_rate_limit(h.value)) PE_FUZZ_CHECK(l->remaining >= 0 && l->reset_seconds >= 0, "rate limit");
    if (const auto cr = pe::parse_content_range(h.value)) PE_FUZZ_CHECK(cr->first <= cr->last && (!cr->total || *cr->total > cr->last), "range");
    if (const auto e = pe::etag_file_name(h.value))
      PE_FUZZ_CHECK(!e->empty() && e->find('/') == std::string::npos && e->front() != '.', "etag names a path: " + *e);
    (void)pe::parse_retry_after(h.value);
    (void)pe::valid_commit_name(h.value);
    if (const auto to = pe::resolve_location("http://hub.test/org/m/resolve/main/f", h.value)) PE_FUZZ_CHECK(pe::parse_url(*to), "resolved to a non-URL: " + *to);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const bool with_range = data[0] & 1, with_token = data[0] & 2;
  const pe::ByteRange range{static_cast<std::uint64_t>(data[0] >> 2), 10};
  std::vector<pe::HttpResponse> answers;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  for (std::size_t at = 0; at <= text.size() && answers.size() < 64;) {
    const auto end = text.find('\0', at);
    answers.push_back(parse_answer(text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at)));
    parse_headers_alone(answers.back());
    if (end == std::string_view::npos) break;
    at = end + 1;
  }
  pe::HubSettings s;
  s.endpoint = "http://hub.test";
  s.token = with_token ? "hf_fuzz" : "";
  s.token_source = with_token ? "HF_TOKEN" : "";
  s.retry_wait_scale = 0;
  std::vector<pe::HttpRequest> log;
  std::size_t next = 0;
  pe::HubClient client(s, std::make_unique<pe_test::ScriptedTransport>(
                              [&](const pe::HttpRequest&) { return next < answers.size() ? answers[next++] : pe_test::answer(500); }, &log));
  try {
    const auto id = client.fetch("org/model", "main", "model.safetensors", with_range ? std::optional<pe::ByteRange>(range) : std::nullopt);
    for (int k = 0; k < 200 && !client.finished(id); ++k) client.pump(0);
    PE_FUZZ_CHECK(client.finished(id), "the fetch did not end");
    const pe::HubFetchResult r = client.take(id);
    if (with_range) {
      PE_FUZZ_CHECK(r.answer.status == 206, "a range result that is not 206");
      PE_FUZZ_CHECK(r.answer.body.size() <= range.length && !r.answer.body.empty(), "a range result of the wrong size");
    } else {
      PE_FUZZ_CHECK(r.answer.status == 200, "a whole-file result that is not 200");
    }
  } catch (const pe::HubError& e) {
    PE_FUZZ_CHECK(std::string(e.what()).size() > 0, "empty message");
  }
  PE_FUZZ_CHECK(log.size() <= 6 * 11, "too many requests: " + std::to_string(log.size()));
  for (const auto& req : log) {
    const std::string auth = pe_test::request_header(req, "Authorization");
    if (!auth.empty()) PE_FUZZ_CHECK(pe::parse_url(req.url) && pe::parse_url(req.url)->origin() == "http://hub.test", "token sent to " + req.url);
  }
  return 0;
}
