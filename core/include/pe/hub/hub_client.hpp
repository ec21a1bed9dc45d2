#pragma once
// Requests to the Hub over an HttpTransport, as huggingface_hub makes them:
//   GET {endpoint}/{ORG/NAME}/resolve/{revision}/{path}, "Authorization: Bearer <token>" while
//   the host is the endpoint's (dropped when a redirect leaves it), "User-Agent: pe-viz/VERSION";
//   redirects followed (a relative Location for small files, another host for large ones; at
//   most 10), recording X-Repo-Commit, X-Linked-Etag / ETag and X-Linked-Size on the way;
//   408, 429, 500, 502, 503, 504 and lost connections retried at most max_retries times — a 429
//   after the wait its RateLimit header gives (t + 1 s, _http.py), else Retry-After, else 1, 2,
//   4, 8, 8 s — each wait announced (notice(), take_notices());
//   a range request must come back 206 with exactly the bytes asked for (a 200 is the whole
//   file: stopped and named, never read); other errors by X-Error-Code (hub_answer.hpp).
// A file's later ranges go straight to the URL its last range came from (one round trip, not
// two; the Hub is asked again when that URL fails). Several fetches run at once
// (HubSettings::parallel). pump() moves them along; it never
// blocks longer than asked, so a page can call it once per frame.
#include "pe/hub/module_guard.hpp"
#include <chrono>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pe/hub/hub_answer.hpp"
#include "pe/hub/hub_settings.hpp"
#include "pe/hub/http_transport.hpp"

namespace pe {

struct HubFetchResult {
  HttpResponse answer;   // the final 200 (a whole file) or 206 (the range asked for)
  std::string commit;    // X-Repo-Commit, from any hop ("" if none said)
  std::string etag;      // X-Linked-Etag, else ETag, of the first hop that gave one
  std::optional<std::uint64_t> size;  // the file's size: X-Linked-Size, Content-Range's total, a 200's length
};

class HubClient {
 public:
  using Id = std::uint64_t;
  // `transport` may be null when settings.offline (nothing will be fetched).
  HubClient(HubSettings settings, std::unique_ptr<HttpTransport> transport);
  ~HubClient();
  const HubSettings& settings() const noexcept { return settings_; }

  // Starts fetching `path` of `repo_id` at `revision`: `range`, or the whole file (at most
  // max_body bytes). Throws HubError(Offline) when the settings say offline.
  Id fetch(const std::string& repo_id, const std::string& revision, const std::string& path, std::optional<ByteRange> range,
           std::uint64_t max_body = std::uint64_t{64} << 20);
  // Moves the fetches along, waiting up to wait_ms for an answer or a retry's time.
  void pump(int wait_ms);
  bool finished(Id id) const;
  // A finished fetch's result (then forgotten); rethrows its HubError.
  HubFetchResult take(Id id);
  // Fetches started and not finished.
  std::size_t pending() const;
  // Stops every fetch (their results never come).
  void cancel_all();

  // A wait under way, for the user to see ("" none), and every announcement since the last call.
  std::string notice() const;
  std::vector<std::string> take_notices();
  // Body bytes received over the network (all transfers, finished or not).
  std::uint64_t bytes_received() const;

 private:
  struct Fetch;
  using Clock = std::chrono::steady_clock;
  void start_ready(Clock::time_point now);
  void answer(Fetch& f, HttpResponse response, Clock::time_point now);
  void retry(Fetch& f, const std::string& why, double seconds, Clock::time_point now);
  void fail(Fetch& f, std::exception_ptr error);

  HubSettings settings_;
  std::unique_ptr<HttpTransport> transport_;
  std::map<Id, std::unique_ptr<Fetch>> fetches_;
  std::map<HttpTransport::Id, Id> transfers_;  // transport transfer → fetch
  Id next_ = 1;
  std::vector<std::string> notices_;
  std::string current_notice_;
  std::map<std::string, std::string> redirects_;  // a file's resolve URL → where its last range came from
};

}  // namespace pe
