#pragma once
// pe::HttpTransport in a browser page: the page's fetch(). Never blocks: start() hands the
// request to a fetch promise in the page (index.html, peViz.http), which keeps the finished
// answer; poll(0) collects them. The browser follows redirects itself (and drops the
// Authorization header when a redirect leaves the origin). Only CORS-safelisted requests are
// made — one "Range: bytes=a-b" header and no other unless a token is given — so the Hub is
// asked without a preflight. A range request answered by anything but 206 is aborted at its
// headers (AbortController) and handed back without a body; a body longer than max_body is
// cut and reported as an error.
#include "pe/hub/http_transport.hpp"

namespace app {

class FetchTransport final : public pe::HttpTransport {
 public:
  FetchTransport();
  ~FetchTransport() override;
  Id start(pe::HttpRequest request) override;
  std::vector<std::pair<Id, pe::HttpResponse>> poll(int wait_ms) override;
  void cancel(Id id) override;
  bool follows_redirects() const override { return true; }
  std::uint64_t bytes_received() const override;

 private:
  int queue_;  // the page's queue of this transport's answers (peViz.http)
  Id next_ = 1;
  std::vector<Id> live_;
};

}  // namespace app
