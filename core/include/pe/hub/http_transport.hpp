#pragma once
// The HTTP client pe/hub talks through, implemented by the platform: libcurl on the desktop
// (app/platform/desktop), fetch() in a browser page (app/platform/web). Asynchronous and
// polled, so one interface serves a thread that may wait and a page that must never block:
// start() returns at once; poll() hands back the answers that are complete.
//
// The transport does only HTTP: no retries, no redirect policy of its own where it can help it
// (the desktop's hands 3xx back, so the Hub client drops the token when a redirect changes
// host; a browser's fetch() follows redirects itself and drops it too). It must stop a transfer
// that answers a range request with anything but 206 at its headers (a 200 would be the whole
// file) and cut a body longer than max_body.
#include "pe/hub/module_guard.hpp"
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pe/weights/ranged_file.hpp"

namespace pe {

struct HttpHeader {
  std::string name;  // lower case in answers
  std::string value;
};

struct HttpRequest {
  std::string url;
  std::vector<HttpHeader> headers;  // Authorization, User-Agent … (not Range)
  std::optional<ByteRange> range;   // sent as "Range: bytes=FIRST-LAST" (one range: no CORS preflight)
  std::uint64_t max_body = std::uint64_t{64} << 20;  // a longer body ends the transfer as an error
};

struct HttpResponse {
  int status = 0;         // 0: no complete answer (error says why)
  std::string error;      // the transport's reason: "connection refused", "connection cut after 123 of 456 bytes", …
  std::string url;        // the URL that answered (after the redirects a browser followed)
  std::vector<HttpHeader> headers;
  std::vector<std::uint8_t> body;  // empty when the transfer was stopped at its headers
  // The value of a header ("" when absent), names compared without case.
  std::string header(std::string_view name) const;
};

class HttpTransport {
 public:
  using Id = std::uint64_t;
  virtual ~HttpTransport() = default;
  virtual Id start(HttpRequest request) = 0;
  // The answers completed since the last call; waits up to wait_ms for one when there is none
  // (a page's transport never waits).
  virtual std::vector<std::pair<Id, HttpResponse>> poll(int wait_ms) = 0;
  // Stops a transfer; its answer never comes.
  virtual void cancel(Id id) = 0;
  // True: redirects are followed here (a browser) and never handed back.
  virtual bool follows_redirects() const = 0;
  // Body bytes received by every transfer so far, finished or not (the rate shown).
  virtual std::uint64_t bytes_received() const = 0;
};

}  // namespace pe
