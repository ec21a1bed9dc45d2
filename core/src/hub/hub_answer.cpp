#include "pe/hub/hub_answer.hpp"

#include <cctype>
#include <charconv>
#include <limits>

#include "pe/base/text.hpp"

namespace pe {

namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// A decimal number filling `s` (digits only), within [0, max].
std::optional<std::uint64_t> whole_number(std::string_view s, std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) {
  if (s.empty() || s.size() > 20) return std::nullopt;
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v > max) return std::nullopt;
  return v;
}

// Text from a server, for a message: printable ASCII only, at most 200 characters.
std::string shown(std::string_view s) {
  std::string out;
  for (const char c : s) {
    if (out.size() >= 200) return out + "…";
    out += (c >= 0x20 && c < 0x7f) ? c : '?';
  }
  return out;
}

std::string model_page(const HubFileRef& w) { return w.endpoint + "/" + w.repo_id; }

std::string with_token(const HubFileRef& w) { return w.token_source.empty() ? "without a token" : "with the token from " + w.token_source; }

}  // namespace

const char* to_string(HubErrorKind kind) {
  switch (kind) {
    case HubErrorKind::Offline: return "Offline";
    case HubErrorKind::Network: return "Network";
    case HubErrorKind::GatedRepo: return "GatedRepo";
    case HubErrorKind::RepoNotFound: return "RepoNotFound";
    case HubErrorKind::RevisionNotFound: return "RevisionNotFound";
    case HubErrorKind::EntryNotFound: return "EntryNotFound";
    case HubErrorKind::RateLimited: return "RateLimited";
    case HubErrorKind::Server: return "Server";
    case HubErrorKind::RangeIgnored: return "RangeIgnored";
    case HubErrorKind::BadAnswer: return "BadAnswer";
    case HubErrorKind::Http: return "Http";
    case HubErrorKind::Cache: return "Cache";
  }
  return "?";
}

HubError::HubError(HubErrorKind kind, std::string message, int status)
    : ConfigError("", std::move(message)), kind_(kind), status_(status) {}

std::optional<RateLimit> parse_rate_limit(std::string_view value) {
  // "NAME";r=R;t=T, spaces allowed around ';' and '=' (the regex of _http.py).
  value = trimmed(value);
  if (value.size() < 2 || value.front() != '"') return std::nullopt;
  const auto close = value.find('"', 1);
  if (close == std::string_view::npos || close == 1) return std::nullopt;
  RateLimit out;
  out.resource = std::string(value.substr(1, close - 1));
  for (const char c : out.resource)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return std::nullopt;
  std::optional<std::uint64_t> r, t;
  std::string_view rest = value.substr(close + 1);
  while (!rest.empty()) {
    rest = trimmed(rest);
    if (rest.empty()) break;
    if (rest.front() != ';') return std::nullopt;
    rest.remove_prefix(1);
    const auto next = rest.find(';');
    const std::string_view item = rest.substr(0, next);
    rest = next == std::string_view::npos ? std::string_view() : rest.substr(next);
    const auto eq = item.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string_view key = trimmed(item.substr(0, eq)), v = trimmed(item.substr(eq + 1));
    if (key == "r") r = whole_number(v, 1ull << 40);
    else if (key == "t") t = whole_number(v, 1ull << 40);
    if ((key == "r" && !r) || (key == "t" && !t)) return std::nullopt;
  }
  if (!r || !t) return std::nullopt;
  out.remaining = static_cast<long long>(*r);
  out.reset_seconds = static_cast<long long>(*t);
  return out;
}

std::optional<long long> parse_retry_after(std::string_view value) {
  const auto v = whole_number(trimmed(value), 1ull << 40);
  if (!v) return std::nullopt;
  return static_cast<long long>(*v);
}

std::optional<ContentRange> parse_content_range(std::string_view value) {
  value = trimmed(value);
  if (value.size() < 6 || ascii_lower(std::string(value.substr(0, 6))) != "bytes ") return std::nullopt;
  value = trimmed(value.substr(6));
  const auto dash = value.find('-'), slash = value.find('/');
  if (dash == std::string_view::npos || slash == std::string_view::npos || dash > slash) return std::nullopt;
  const auto first = whole_number(trimmed(value.substr(0, dash))), last = whole_number(trimmed(value.substr(dash + 1, slash - dash - 1)));
  if (!first || !last || *last < *first) return std::nullopt;
  ContentRange out{*first, *last, std::nullopt};
  const std::string_view total = trimmed(value.substr(slash + 1));
  if (total != "*") {
    out.total = whole_number(total);
    if (!out.total || *out.total <= *last) return std::nullopt;
  }
  return out;
}

std::optional<std::string> etag_file_name(std::string_view etag) {
  etag = trimmed(etag);
  if (etag.rfind("W/", 0) == 0) etag.remove_prefix(2);
  while (!etag.empty() && etag.front() == '"') etag.remove_prefix(1);
  while (!etag.empty() && etag.back() == '"') etag.remove_suffix(1);
  if (etag.empty() || etag.size() > 128 || etag.front() == '.') return std::nullopt;
  for (const char c : etag)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.' && c != '+' && c != '=') return std::nullopt;
  return std::string(etag);
}

bool valid_commit_name(std::string_view commit) {
  if (commit.empty() || commit.size() > 128 || commit.front() == '.') return false;
  for (const char c : commit)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') return false;
  return true;
}

HubError hub_error_of(const HttpResponse& answer, const HubFileRef& w) {
  const int status = answer.status;
  const std::string code = answer.header("x-error-code"), said = shown(answer.header("x-error-message"));
  const std::string file = w.path + " of " + w.repo_id + (w.revision == "main" ? "" : " at " + w.revision);
  const std::string hub = " (" + std::to_string(status) + (code.empty() ? "" : " " + shown(code)) + ")";
  if (code == "GatedRepo" || (status == 403 && said.find("gated") != std::string::npos)) {
    if (w.token_source.empty() || status == 401)
      return HubError(HubErrorKind::GatedRepo,
                      w.repo_id + " is a gated model: its files are given only to signed-in users who accepted its terms" + hub +
                          ". To read it: accept the terms on " + model_page(w) + ", make a read token at " + w.endpoint +
                          "/settings/tokens and " + w.token_advice + ", then run this again" +
                          (w.token_source.empty() ? "" : " (the token from " + w.token_source + " was not accepted)"),
                      status);
    return HubError(HubErrorKind::GatedRepo,
                    w.repo_id + " is a gated model and the token from " + w.token_source + " has not been granted access yet" + hub +
                        ": request access on " + model_page(w) + " (some authors approve each request by hand; the page says when it is granted), then run this again",
                    status);
  }
  if (code == "RepoNotFound" || (status == 401 && code.empty()))
    return HubError(HubErrorKind::RepoNotFound,
                    w.repo_id + ": no such model on " + w.endpoint + ", " + with_token(w) + hub +
                        ". Check the name (ORG/NAME; case matters). A private model looks the same to a reader without access: "
                        "make a token of an account that can read it and " + w.token_advice,
                    status);
  if (code == "RevisionNotFound")
    return HubError(HubErrorKind::RevisionNotFound,
                    w.repo_id + " has no revision \"" + w.revision + "\"" + hub + ": give a branch, tag or commit it has, e.g. " +
                        w.repo_id + "@main",
                    status);
  if (code == "EntryNotFound" || (status == 404 && code.empty()))
    return HubError(HubErrorKind::EntryNotFound, w.repo_id + " has no file " + w.path + (w.revision == "main" ? "" : " at " + w.revision) + hub,
                    status);
  if (status == 429)
    return HubError(HubErrorKind::RateLimited, file + ": the Hub still limits the rate of requests" + hub +
                                                   (said.empty() ? "" : ": " + said) + "; try again in a few minutes",
                    status);
  if (status >= 500)
    return HubError(HubErrorKind::Server, file + ": the server failed" + hub + (said.empty() ? "" : ": " + said) + "; try again later",
                    status);
  if (status == 403)
    return HubError(HubErrorKind::Http, file + ": access refused " + with_token(w) + hub + (said.empty() ? "" : ": " + said), status);
  return HubError(HubErrorKind::Http, file + ": the server answered" + hub + (said.empty() ? "" : ": " + said), status);
}

}  // namespace pe
