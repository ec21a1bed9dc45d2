// The desktop's HTTP client for pe/hub: libcurl's multi interface on a thread of its own, so
// transfers go on while the caller sums the bytes that arrived (the q/k reading loads the next
// batch while it sums this one). Redirects are handed back (the Hub client follows them and
// drops the token when the host changes); a range request answered 200 is stopped at its
// headers; a body over max_body is cut.
#include "platform/desktop/http_transport_curl.hpp"

#include <curl/curl.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

namespace app {

namespace {

struct Transfer {
  pe::HttpTransport::Id id = 0;
  pe::HttpRequest request;
  pe::HttpResponse response;
  CURL* easy = nullptr;
  curl_slist* headers = nullptr;
  bool stopped_at_headers = false;  // a range answered 200: not read
  bool too_long = false;
  std::atomic<std::uint64_t>* received = nullptr;
  std::string expected_length;  // Content-Length, for "cut after N of M bytes"
};

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto& t = *static_cast<Transfer*>(user);
  const std::size_t n = size * count;
  std::string line(data, n);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  if (line.rfind("HTTP/", 0) == 0) {
    t.response.headers.clear();
    const auto space = line.find(' ');
    t.response.status = space == std::string::npos ? 0 : std::atoi(line.c_str() + space + 1);
    return n;
  }
  if (line.empty()) {
    // The end of the headers: a range request must come back 206 (a 200 would be the whole
    // file, maybe 16 GB): stop here, the client names it.
    if (t.request.range && t.response.status == 200) {
      t.stopped_at_headers = true;
      return 0;
    }
    return n;
  }
  const auto colon = line.find(':');
  if (colon == std::string::npos) return n;
  std::string name = line.substr(0, colon), value = line.substr(colon + 1);
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  while (!value.empty() && value.front() == ' ') value.erase(value.begin());
  if (name == "content-length") t.expected_length = value;
  t.response.headers.push_back({std::move(name), std::move(value)});
  return n;
}

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto& t = *static_cast<Transfer*>(user);
  const std::size_t n = size * count;
  if (t.response.body.size() + n > t.request.max_body) {
    t.too_long = true;
    return 0;
  }
  t.response.body.insert(t.response.body.end(), data, data + n);
  *t.received += n;
  return n;
}

}  // namespace

struct CurlTransport::Worker {
  std::mutex mutex;
  std::condition_variable answered;
  std::deque<Transfer*> to_start;
  std::deque<Id> to_cancel;
  std::vector<std::pair<Id, pe::HttpResponse>> done;
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> received{0};
  CURLM* multi = nullptr;
  std::thread thread;

  void run();
  void begin(Transfer* t);
  void finish(Transfer* t, CURLcode code);
  std::map<Id, Transfer*> running;
};

void CurlTransport::Worker::begin(Transfer* t) {
  CURL* e = curl_easy_init();
  t->easy = e;
  t->received = &received;
  curl_easy_setopt(e, CURLOPT_URL, t->request.url.c_str());
  curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);  // redirects are the Hub client's to follow
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT, 30L);
  // A transfer that stalls (under 1 byte/s for a minute) ends as lost, and is retried.
  curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(e, CURLOPT_LOW_SPEED_TIME, 60L);
  curl_easy_setopt(e, CURLOPT_BUFFERSIZE, 512L * 1024L);
  curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");  // JSON may come compressed; ranges never are
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(e, CURLOPT_HEADERDATA, t);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, t);
  curl_easy_setopt(e, CURLOPT_PRIVATE, t);
  for (const auto& h : t->request.headers) t->headers = curl_slist_append(t->headers, (h.name + ": " + h.value).c_str());
  curl_easy_setopt(e, CURLOPT_HTTPHEADER, t->headers);
  if (t->request.range) {
    const std::string range = std::to_string(t->request.range->offset) + "-" + std::to_string(t->request.range->end() - 1);
    curl_easy_setopt(e, CURLOPT_RANGE, range.c_str());  // copied by libcurl
    curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, nullptr);
    t->response.body.reserve(static_cast<std::size_t>(t->request.range->length));
  }
  t->response.url = t->request.url;
  running.emplace(t->id, t);
  curl_multi_add_handle(multi, e);
}

void CurlTransport::Worker::finish(Transfer* t, CURLcode code) {
  pe::HttpResponse& r = t->response;
  if (t->stopped_at_headers) {
    r.body.clear();  // stopped on purpose: the status says why
  } else if (t->too_long) {
    r.status = 0;
    r.error = "the answer is longer than the " + std::to_string(t->request.max_body) + " bytes asked for";
  } else if (code != CURLE_OK) {
    const std::uint64_t got = r.body.size();
    r.status = 0;
    r.error = curl_easy_strerror(code);
    if (got > 0 || code == CURLE_PARTIAL_FILE)
      r.error = "connection cut after " + std::to_string(got) + (t->expected_length.empty() ? "" : " of " + t->expected_length) +
                " bytes (" + r.error + ")";
  } else {
    long status = 0;
    curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status);
    r.status = static_cast<int>(status);
  }
  curl_multi_remove_handle(multi, t->easy);
  curl_easy_cleanup(t->easy);
  curl_slist_free_all(t->headers);
  running.erase(t->id);
  {
    std::lock_guard lock(mutex);
    done.emplace_back(t->id, std::move(r));
  }
  answered.notify_all();
  delete t;
}

void CurlTransport::Worker::run() {
  while (!stop) {
    {
      std::unique_lock lock(mutex);
      while (!to_start.empty()) {
        Transfer* t = to_start.front();
        to_start.pop_front();
        lock.unlock();
        begin(t);
        lock.lock();
      }
      for (const Id id : to_cancel) {
        const auto it = running.find(id);
        if (it == running.end()) continue;
        curl_multi_remove_handle(multi, it->second->easy);
        curl_easy_cleanup(it->second->easy);
        curl_slist_free_all(it->second->headers);
        delete it->second;
        running.erase(it);
      }
      to_cancel.clear();
    }
    int active = 0;
    curl_multi_perform(multi, &active);
    int left = 0;
    while (CURLMsg* m = curl_multi_info_read(multi, &left)) {
      if (m->msg != CURLMSG_DONE) continue;
      Transfer* t = nullptr;
      curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, &t);
      finish(t, m->data.result);
    }
    curl_multi_poll(multi, nullptr, 0, 100, nullptr);
  }
  for (auto& [id, t] : running) {
    curl_multi_remove_handle(multi, t->easy);
    curl_easy_cleanup(t->easy);
    curl_slist_free_all(t->headers);
    delete t;
  }
  running.clear();
}

CurlTransport::CurlTransport() : w_(std::make_unique<Worker>()) {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  w_->multi = curl_multi_init();
  curl_multi_setopt(w_->multi, CURLMOPT_MAX_HOST_CONNECTIONS, 8L);
  w_->thread = std::thread([w = w_.get()] { w->run(); });
}

CurlTransport::~CurlTransport() {
  w_->stop = true;
  curl_multi_wakeup(w_->multi);
  w_->thread.join();
  for (Transfer* t : w_->to_start) delete t;
  curl_multi_cleanup(w_->multi);
}

pe::HttpTransport::Id CurlTransport::start(pe::HttpRequest request) {
  auto* t = new Transfer;
  const Id id = next_++;  // t belongs to the worker once queued (it may be done and gone at once)
  t->id = id;
  t->request = std::move(request);
  {
    std::lock_guard lock(w_->mutex);
    w_->to_start.push_back(t);
  }
  curl_multi_wakeup(w_->multi);
  return id;
}

std::vector<std::pair<pe::HttpTransport::Id, pe::HttpResponse>> CurlTransport::poll(int wait_ms) {
  std::unique_lock lock(w_->mutex);
  if (w_->done.empty() && wait_ms > 0)
    w_->answered.wait_for(lock, std::chrono::milliseconds(wait_ms), [this] { return !w_->done.empty(); });
  std::vector<std::pair<Id, pe::HttpResponse>> out;
  out.swap(w_->done);
  return out;
}

void CurlTransport::cancel(Id id) {
  {
    std::lock_guard lock(w_->mutex);
    w_->to_cancel.push_back(id);
    std::erase_if(w_->done, [id](const auto& d) { return d.first == id; });
    for (auto it = w_->to_start.begin(); it != w_->to_start.end(); ++it)
      if ((*it)->id == id) {
        delete *it;
        w_->to_start.erase(it);
        break;
      }
  }
  curl_multi_wakeup(w_->multi);
}

std::uint64_t CurlTransport::bytes_received() const { return w_->received; }

}  // namespace app
