#include "platform/web/http_transport_fetch.hpp"

#include <emscripten.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>

// The page's side is peViz.http in index.html; these only move values across.
// clang-format off
EM_JS(void, pe_js_http_start, (int queue, double id, const char* url, const char* token, double first, double last, double max_body), {
  Module.peViz.http.start(queue, id, UTF8ToString(url), UTF8ToString(token), first, last, max_body);
});
EM_JS(double, pe_js_http_take, (int queue, int* status, int* body_size), {
  /* The queue's next finished answer becomes the current one: its id (0: none), status and body size. */
  var a = Module.peViz.http.take(queue);
  if (!a) return 0;
  HEAP32[status >> 2] = a.status;
  HEAP32[body_size >> 2] = a.body ? a.body.length : 0;
  return a.id;
});
EM_JS(char*, pe_js_http_current_text, (int which), {
  var a = Module.peViz.http.current;
  return allocateUTF8(which == 0 ? a.error : which == 1 ? a.url : a.headers);
});
EM_JS(void, pe_js_http_current_body, (unsigned char* out), {
  var a = Module.peViz.http.current;
  if (a.body) HEAPU8.set(a.body, out);
  Module.peViz.http.current = null;
});
EM_JS(void, pe_js_http_cancel, (int queue, double id), { Module.peViz.http.cancel(queue, id); });
EM_JS(double, pe_js_http_received, (int queue), { return Module.peViz.http.received(queue); });
EM_JS(int, pe_js_http_open_queue, (), { return Module.peViz.http.openQueue(); });
EM_JS(void, pe_js_http_close_queue, (int queue), { Module.peViz.http.closeQueue(queue); });
// clang-format on

namespace app {

namespace {

std::string take_text(char* p) {
  std::string s = p ? p : "";
  std::free(p);
  return s;
}

bool same_name(const std::string& a, const char* b) {
  const std::string bs(b);
  return a.size() == bs.size() && std::equal(a.begin(), a.end(), bs.begin(), [](char x, char y) { return std::tolower(x) == std::tolower(y); });
}

}  // namespace

FetchTransport::FetchTransport() : queue_(pe_js_http_open_queue()) {}

// Transfers under way are aborted; their answers never come.
FetchTransport::~FetchTransport() { pe_js_http_close_queue(queue_); }

pe::HttpTransport::Id FetchTransport::start(pe::HttpRequest request) {
  const Id id = next_++;
  // Only the token crosses: User-Agent is the browser's own, and any header beyond the
  // safelisted ones would make the browser ask the server first (a CORS preflight).
  std::string token;
  for (const pe::HttpHeader& h : request.headers)
    if (same_name(h.name, "authorization")) token = h.value;
  const double first = request.range ? double(request.range->offset) : -1.0;
  const double last = request.range ? double(request.range->end() - 1) : -1.0;
  pe_js_http_start(queue_, double(id), request.url.c_str(), token.c_str(), first, last, double(request.max_body));
  live_.push_back(id);
  return id;
}

std::vector<std::pair<pe::HttpTransport::Id, pe::HttpResponse>> FetchTransport::poll(int) {
  std::vector<std::pair<Id, pe::HttpResponse>> out;
  for (;;) {
    int status = 0, size = 0;
    const Id id = Id(pe_js_http_take(queue_, &status, &size));
    if (id == 0) break;
    pe::HttpResponse r;
    r.status = status;
    r.error = take_text(pe_js_http_current_text(0));
    r.url = take_text(pe_js_http_current_text(1));
    // "name: value" lines, names in lower case (fetch's Headers give them so).
    const std::string headers = take_text(pe_js_http_current_text(2));
    std::size_t start = 0;
    while (start < headers.size()) {
      std::size_t end = headers.find('\n', start);
      if (end == std::string::npos) end = headers.size();
      const std::string line = headers.substr(start, end - start);
      if (const std::size_t colon = line.find(':'); colon != std::string::npos) {
        std::size_t v = colon + 1;
        while (v < line.size() && line[v] == ' ') ++v;
        r.headers.push_back({line.substr(0, colon), line.substr(v)});
      }
      start = end + 1;
    }
    r.body.resize(std::size_t(size));
    pe_js_http_current_body(r.body.data());
    std::erase(live_, id);
    out.emplace_back(id, std::move(r));
  }
  return out;
}

void FetchTransport::cancel(Id id) {
  pe_js_http_cancel(queue_, double(id));
  std::erase(live_, id);
}

std::uint64_t FetchTransport::bytes_received() const { return std::uint64_t(pe_js_http_received(queue_)); }

}  // namespace app
