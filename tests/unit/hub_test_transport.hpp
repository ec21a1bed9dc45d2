#pragma once
// An HttpTransport for the Hub tests: each request is answered by the test's function on the
// next poll() (a scripted server), every request is kept (URL, headers, range), and the body
// bytes answered are counted. A range request answered with anything but 206 comes back with
// its headers only, as the real transports stop it.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "pe/hub/http_transport.hpp"

namespace pe_test {

class ScriptedTransport final : public pe::HttpTransport {
 public:
  using Server = std::function<pe::HttpResponse(const pe::HttpRequest&)>;
  explicit ScriptedTransport(Server server, std::vector<pe::HttpRequest>* log = nullptr) : server_(std::move(server)), log_(log) {}

  Id start(pe::HttpRequest request) override {
    if (log_) log_->push_back(request);
    queued_.emplace(next_, std::move(request));
    return next_++;
  }
  std::vector<std::pair<Id, pe::HttpResponse>> poll(int) override {
    std::vector<std::pair<Id, pe::HttpResponse>> out;
    for (auto& [id, request] : queued_) {
      pe::HttpResponse r = server_(request);
      if (r.url.empty()) r.url = request.url;
      if (request.range && r.status != 206) r.body.clear();
      received_ += r.body.size();
      out.emplace_back(id, std::move(r));
    }
    queued_.clear();
    return out;
  }
  void cancel(Id id) override { queued_.erase(id); }
  bool follows_redirects() const override { return false; }
  std::uint64_t bytes_received() const override { return received_; }

 private:
  Server server_;
  std::vector<pe::HttpRequest>* log_;
  std::map<Id, pe::HttpRequest> queued_;
  Id next_ = 1;
  std::uint64_t received_ = 0;
};

inline std::string request_header(const pe::HttpRequest& r, const std::string& name) {
  for (const auto& h : r.headers)
    if (h.name == name) return h.value;
  return {};
}

inline pe::HttpResponse answer(int status, std::vector<pe::HttpHeader> headers = {}, std::string body = {}) {
  pe::HttpResponse r;
  r.status = status;
  for (auto& h : headers) {
    for (char& c : h.name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    r.headers.push_back(std::move(h));
  }
  r.body.assign(body.begin(), body.end());
  return r;
}

}  // namespace pe_test
