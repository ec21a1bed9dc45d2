#pragma once
// pe::HttpTransport over libcurl (Debian's libcurl4-openssl-dev), for the desktop build:
// platform/host.hpp's make_http_transport() gives one.
#include <memory>

#include "pe/hub/http_transport.hpp"

namespace app {

class CurlTransport final : public pe::HttpTransport {
 public:
  CurlTransport();
  ~CurlTransport() override;
  Id start(pe::HttpRequest request) override;
  std::vector<std::pair<Id, pe::HttpResponse>> poll(int wait_ms) override;
  void cancel(Id id) override;
  bool follows_redirects() const override { return false; }
  std::uint64_t bytes_received() const override;

 private:
  struct Worker;
  std::unique_ptr<Worker> w_;
  Id next_ = 1;
};

}  // namespace app
