#include "pe/hub/hub_client.hpp"

#include <algorithm>
#include <cmath>
#include <thread>

#include "pe/hub/hub_url.hpp"

namespace pe {

namespace {

constexpr int kMaxRedirects = 10;

bool is_redirect(int status) { return status == 301 || status == 302 || status == 303 || status == 307 || status == 308; }
bool is_retried(int status) { return status == 408 || status == 429 || status == 500 || status == 502 || status == 503 || status == 504; }

std::string range_text(ByteRange r) { return "bytes=" + std::to_string(r.offset) + "-" + std::to_string(r.end() - 1); }

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, s < 10 ? "%.1f s" : "%.0f s", s);
  return buf;
}

std::string host_of(const std::string& url) {
  const auto p = parse_url(url);
  return p ? p->origin() : url;
}

}  // namespace

struct HubClient::Fetch {
  HubFileRef ref;
  std::string first_url, url;
  std::optional<ByteRange> range;
  std::uint64_t max_body = 0;
  int redirects = 0, attempts = 0;
  double backoff = 1.0;
  Clock::time_point ready_at{};
  bool token_allowed = true;
  bool waiting = false;  // a retry's time has not come
  bool via_known_redirect = false;  // started at the file's last download URL, not the resolve URL
  std::optional<HttpTransport::Id> transfer;
  HubFetchResult result;
  bool done = false;
  std::exception_ptr error;
};

HubClient::HubClient(HubSettings settings, std::unique_ptr<HttpTransport> transport)
    : settings_(std::move(settings)), transport_(std::move(transport)) {}

HubClient::~HubClient() { cancel_all(); }

HubClient::Id HubClient::fetch(const std::string& repo_id, const std::string& revision, const std::string& path,
                               std::optional<ByteRange> range, std::uint64_t max_body) {
  if (settings_.offline || !transport_)
    throw HubError(HubErrorKind::Offline, repo_id + ": " + path + " is not in the local caches, and HF_HUB_OFFLINE is set: no network. "
                                                          "Unset HF_HUB_OFFLINE to download it, or download it first with `hf download " +
                                              repo_id + " " + path + "`");
  auto f = std::make_unique<Fetch>();
  f->ref = {settings_.endpoint, repo_id, revision, path, settings_.token.empty() ? "" : settings_.token_source, settings_.token_advice};
  f->first_url = f->url = hub_file_url(settings_.endpoint, repo_id, revision, path);
  // A file's ranges after the first: straight to where its last range came from (the Hub's
  // download host, its URL signed already), one round trip instead of two.
  if (const auto known = redirects_.find(f->first_url); range && known != redirects_.end()) {
    f->url = known->second;
    f->via_known_redirect = true;
    f->token_allowed = false;
  }
  f->range = range;
  f->max_body = range ? range->length : max_body;
  const Id id = next_++;
  fetches_.emplace(id, std::move(f));
  start_ready(Clock::now());
  return id;
}

void HubClient::start_ready(Clock::time_point now) {
  std::size_t running = transfers_.size();
  const std::size_t limit = static_cast<std::size_t>(std::max(1, settings_.parallel));
  for (auto& [id, f] : fetches_) {
    if (running >= limit) break;
    if (f->done || f->transfer || f->ready_at > now) continue;
    f->waiting = false;
    HttpRequest r;
    r.url = f->url;
    r.range = f->range;
    r.max_body = f->max_body;
    r.headers.push_back({"User-Agent", settings_.user_agent});
    // The token goes only to the endpoint's host: a redirect elsewhere (the download host of a
    // large file, signed already) must not see it.
    if (!settings_.token.empty() && f->token_allowed && host_of(f->url) == host_of(settings_.endpoint))
      r.headers.push_back({"Authorization", "Bearer " + settings_.token});
    if (settings_.trace)
      settings_.trace("start " + std::to_string(id) + " " + f->url + (f->range ? " " + range_text(*f->range) : std::string()));
    f->transfer = transport_->start(std::move(r));
    transfers_.emplace(*f->transfer, id);
    ++running;
  }
}

void HubClient::retry(Fetch& f, const std::string& why, double seconds, Clock::time_point now) {
  if (f.attempts >= settings_.max_retries) return;
  ++f.attempts;
  const double wait = seconds * settings_.retry_wait_scale;
  f.ready_at = now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(wait));
  f.waiting = true;
  f.url = f.first_url;  // a signed redirect may have expired: ask again from the start
  f.via_known_redirect = false;
  f.redirects = 0;
  f.token_allowed = true;
  current_notice_ = f.ref.repo_id + ": " + f.ref.path + (f.range ? " (" + range_text(*f.range) + ")" : "") + ": " + why +
                    "; waiting " + seconds_text(seconds) + " before retry " + std::to_string(f.attempts) + " of " +
                    std::to_string(settings_.max_retries);
  notices_.push_back(current_notice_);
}

void HubClient::fail(Fetch& f, std::exception_ptr error) {
  f.done = true;
  f.error = std::move(error);
}

void HubClient::answer(Fetch& f, HttpResponse a, Clock::time_point now) {
  const auto fail_with = [&](HubErrorKind kind, const std::string& message) {
    fail(f, std::make_exception_ptr(HubError(kind, message, a.status)));
  };
  // What any hop says about the file (the first hop is the Hub's own answer).
  if (const std::string c = a.header("x-repo-commit"); !c.empty() && f.result.commit.empty()) f.result.commit = c;
  if (f.result.etag.empty()) {
    const std::string linked = a.header("x-linked-etag");
    f.result.etag = linked.empty() ? a.header("etag") : linked;
  }
  if (!f.result.size) {
    if (const auto n = parse_retry_after(a.header("x-linked-size"))) f.result.size = static_cast<std::uint64_t>(*n);
  }
  const std::string where = f.ref.repo_id + ": " + f.ref.path;
  // The remembered download URL failed (expired, gone): forget it and ask the Hub again, as if
  // it had not been tried.
  if (f.via_known_redirect && (a.status >= 300 || a.status == 200)) {
    redirects_.erase(f.first_url);
    f.via_known_redirect = false;
    f.url = f.first_url;
    f.token_allowed = true;
    f.ready_at = now;
    return;
  }
  if (a.status == 0) {
    const std::string why = "no answer from " + host_of(f.url) + " (" + a.error + ")";
    if (f.attempts < settings_.max_retries) {
      retry(f, why, f.backoff, now);
      f.backoff = std::min(8.0, f.backoff * 2);
      return;
    }
    return fail_with(HubErrorKind::Network, where + ": " + why + ", after " + std::to_string(f.attempts + 1) + " attempts");
  }
  if (is_redirect(a.status)) {
    const auto next = resolve_location(f.url, a.header("location"));
    if (!next) return fail_with(HubErrorKind::BadAnswer, where + ": a redirect (" + std::to_string(a.status) + ") without a usable Location");
    if (++f.redirects > kMaxRedirects) return fail_with(HubErrorKind::BadAnswer, where + ": more than 10 redirects");
    if (host_of(*next) != host_of(f.url)) f.token_allowed = false;
    f.url = *next;
    f.ready_at = now;
    return;
  }
  if (is_retried(a.status) && f.attempts < settings_.max_retries) {
    double wait = f.backoff;
    std::string why = "the server answered " + std::to_string(a.status);
    if (a.status == 429) {
      const std::string header = a.header("ratelimit");
      const auto limit = parse_rate_limit(header);
      why = "rate limited by " + host_of(f.url) + " (429" + (header.empty() ? "" : ", RateLimit: " + header) + ")";
      if (limit && limit->remaining == 0) wait = static_cast<double>(limit->reset_seconds) + 1.0;  // +1 s: _http.py
      else if (const auto after = parse_retry_after(a.header("retry-after"))) wait = static_cast<double>(*after);
    }
    f.backoff = std::min(8.0, f.backoff * 2);
    return retry(f, why, wait, now);
  }
  if (a.status >= 400) return fail(f, std::make_exception_ptr(hub_error_of(a, f.ref)));
  if (f.range) {
    if (a.status == 200)
      return fail_with(HubErrorKind::RangeIgnored,
                       where + ": " + host_of(f.url) + " answered a range request (" + range_text(*f.range) + ") with the whole file (200" +
                           (f.result.size ? ", " + std::to_string(*f.result.size) + " bytes" : std::string()) +
                           "): stopped before its body rather than download all of it. The server (HF_ENDPOINT=" + settings_.endpoint +
                           ") does not serve byte ranges");
    const auto cr = parse_content_range(a.header("content-range"));
    const std::uint64_t asked_last = f.range->end() - 1;
    const bool fits = cr && a.status == 206 && cr->first == f.range->offset &&
                      (cr->last == asked_last || (cr->last < asked_last && cr->total && *cr->total == cr->last + 1)) &&
                      a.body.size() == cr->last - cr->first + 1;
    if (!fits)
      return fail_with(HubErrorKind::BadAnswer, where + ": asked for " + range_text(*f.range) + ", got " + std::to_string(a.status) +
                                                    " with Content-Range \"" + a.header("content-range") + "\" and " +
                                                    std::to_string(a.body.size()) + " bytes");
    if (cr->total) f.result.size = cr->total;
    if (f.url != f.first_url) redirects_[f.first_url] = f.url;
  } else if (a.status == 200) {
    if (!f.result.size) f.result.size = a.body.size();
  } else {
    return fail_with(HubErrorKind::BadAnswer, where + ": unexpected answer " + std::to_string(a.status));
  }
  f.result.answer = std::move(a);
  f.done = true;
}

void HubClient::pump(int wait_ms) {
  if (!transport_) return;
  auto now = Clock::now();
  start_ready(now);
  // Wait for answers, but not past the time the next retry is due.
  int wait = std::max(0, wait_ms);
  for (const auto& [id, f] : fetches_)
    if (!f->done && !f->transfer && f->ready_at > now)
      wait = std::min<int>(wait, static_cast<int>(std::ceil(std::chrono::duration<double, std::milli>(f->ready_at - now).count())));
  if (transfers_.empty()) {
    // Nothing in flight: only a retry's wait (never in a page, which pumps with wait 0).
    if (wait > 0 && std::any_of(fetches_.begin(), fetches_.end(), [](const auto& e) { return !e.second->done; }))
      std::this_thread::sleep_for(std::chrono::milliseconds(wait));
  } else {
    for (auto& [transfer, response] : transport_->poll(wait)) {
      const auto t = transfers_.find(transfer);
      if (t == transfers_.end()) continue;
      const Id id = t->second;
      transfers_.erase(t);
      const auto f = fetches_.find(id);
      if (f == fetches_.end()) continue;
      f->second->transfer.reset();
      if (settings_.trace)
        settings_.trace("answer " + std::to_string(id) + " " + std::to_string(response.status) + " " + std::to_string(response.body.size()) +
                        " bytes" + (response.error.empty() ? "" : " (" + response.error + ")"));
      answer(*f->second, std::move(response), Clock::now());
    }
  }
  now = Clock::now();
  start_ready(now);
}

bool HubClient::finished(Id id) const {
  const auto it = fetches_.find(id);
  return it != fetches_.end() && it->second->done;
}

HubFetchResult HubClient::take(Id id) {
  const auto it = fetches_.find(id);
  if (it == fetches_.end() || !it->second->done) throw std::logic_error("HubClient::take: fetch not finished");
  std::unique_ptr<Fetch> f = std::move(it->second);
  fetches_.erase(it);
  if (f->error) std::rethrow_exception(f->error);
  return std::move(f->result);
}

std::size_t HubClient::pending() const {
  return static_cast<std::size_t>(std::count_if(fetches_.begin(), fetches_.end(), [](const auto& e) { return !e.second->done; }));
}

void HubClient::cancel_all() {
  if (transport_)
    for (const auto& [transfer, id] : transfers_) transport_->cancel(transfer);
  transfers_.clear();
  fetches_.clear();
}

std::string HubClient::notice() const {
  const bool waiting = std::any_of(fetches_.begin(), fetches_.end(), [](const auto& e) { return e.second->waiting; });
  return waiting ? current_notice_ : std::string();
}

std::vector<std::string> HubClient::take_notices() {
  std::vector<std::string> out;
  out.swap(notices_);
  return out;
}

std::uint64_t HubClient::bytes_received() const { return transport_ ? transport_->bytes_received() : 0; }

}  // namespace pe
