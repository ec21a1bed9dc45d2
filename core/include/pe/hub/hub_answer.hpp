#pragma once
// What the Hub's answers say, header by header (each parser takes any text: they are fuzzed),
// and the errors they mean (huggingface_hub utils/_http.py hf_raise_for_status): the
// X-Error-Code header names GatedRepo (401 without a token, 403 when not granted),
// RepoNotFound (a bare 401 too: private and missing repositories look alike),
// RevisionNotFound and EntryNotFound (404); a 429 carries RateLimit: "NAME";r=R;t=T.
#include "pe/hub/module_guard.hpp"
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "pe/hub/http_transport.hpp"
#include "pe/models/config.hpp"

namespace pe {

enum class HubErrorKind {
  Offline,           // HF_HUB_OFFLINE and the caches do not hold it
  Network,           // no answer (connection refused, cut, timed out) after the retries
  GatedRepo,         // 401 / 403 with X-Error-Code: GatedRepo
  RepoNotFound,      // X-Error-Code: RepoNotFound, or a bare 401
  RevisionNotFound,  // X-Error-Code: RevisionNotFound
  EntryNotFound,     // X-Error-Code: EntryNotFound (or a bare 404)
  RateLimited,       // 429 after the retries
  Server,            // 5xx after the retries
  RangeIgnored,      // a range request answered with the whole file (200)
  BadAnswer,         // an answer that contradicts itself or the request (a wrong range, no ETag, …)
  Http,              // any other status
  Cache,             // the caches could not be written
};
const char* to_string(HubErrorKind kind);  // "GatedRepo", "EntryNotFound", …

// A reading from the Hub that failed. what() says what, where, and what to do (a gated
// model: where to accept its terms and make a token). ConfigError::key() is "model".
class HubError : public ConfigError {
 public:
  HubError(HubErrorKind kind, std::string message, int status = 0);
  HubErrorKind kind() const noexcept { return kind_; }
  int status() const noexcept { return status_; }

 private:
  HubErrorKind kind_;
  int status_;
};

// RateLimit (IETF draft httpapi-ratelimit-headers, the subset _http.py reads):
// "resolvers";r=0;t=55 → resource "resolvers", 0 requests remaining, reset in 55 s.
struct RateLimit {
  std::string resource;
  long long remaining = 0;
  long long reset_seconds = 0;
};
std::optional<RateLimit> parse_rate_limit(std::string_view value);
// Retry-After as a number of seconds (an HTTP date is not read, as in _http.py).
std::optional<long long> parse_retry_after(std::string_view value);

// Content-Range of a 206: "bytes FIRST-LAST/TOTAL" (TOTAL may be "*").
struct ContentRange {
  std::uint64_t first = 0, last = 0;
  std::optional<std::uint64_t> total;
};
std::optional<ContentRange> parse_content_range(std::string_view value);

// An ETag as a file name: W/"x" and "x" → x (file_download.py _normalize_etag). nullopt when
// what is left could not name a file (empty, a path, control characters, over 128 bytes).
std::optional<std::string> etag_file_name(std::string_view etag);
// Whether a commit from X-Repo-Commit can name a folder (letters, digits, '-', '_', '.', not
// starting with '.', at most 128 characters).
bool valid_commit_name(std::string_view commit);

// What a request was for, for messages.
struct HubFileRef {
  std::string endpoint;   // HubSettings::endpoint
  std::string repo_id;    // ORG/NAME
  std::string revision;   // as asked
  std::string path;       // the file in the repository
  std::string token_source;  // "" when no token was sent
  // How the reader gives a token, in a message's words (HubSettings::token_advice).
  std::string token_advice = "give it as HF_TOKEN (or log in with `hf auth login`)";
};
// The error an answer means (status ≥ 400), its message naming the model, the file and the
// fix: a gated model's page to accept its terms and where to make a token, a private model's
// need for a token, the revision or file that does not exist.
HubError hub_error_of(const HttpResponse& answer, const HubFileRef& what);

}  // namespace pe
