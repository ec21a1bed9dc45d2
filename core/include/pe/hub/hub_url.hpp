#pragma once
// The Hub's URLs: where a file of a repository is (file_download.py hf_hub_url), and the
// redirects the Hub answers with (a path for small files, another host for large ones).
#include "pe/hub/module_guard.hpp"
#include <optional>
#include <string>
#include <string_view>

namespace pe {

// Percent-encoding as Python's urllib.parse.quote: letters, digits and "_.-~" stay, as do the
// characters in `safe`; every other byte becomes %XX (upper-case hex).
std::string percent_encode(std::string_view text, std::string_view safe = "/");

// {endpoint}/{repo_id}/resolve/{revision}/{path}: the revision encoded with no safe character
// ("refs/pr/1" → "refs%2Fpr%2F1"), the path keeping its slashes (hf_hub_url).
std::string hub_file_url(const std::string& endpoint, const std::string& repo_id, const std::string& revision,
                         const std::string& path);

struct UrlParts {
  std::string scheme;  // "http" / "https", lower case
  std::string host;    // lower case
  std::string port;    // "" when absent
  std::string path;    // from the first "/" on (query included), "/" when absent
  // scheme://host[:port]: what "the same host" means for a redirect.
  std::string origin() const;
};
// An absolute http(s) URL's parts; nullopt for anything else.
std::optional<UrlParts> parse_url(std::string_view url);

// The URL a Location header names, from the URL it answered: absolute as given, or a path
// ("/api/resolve-cache/…") or a relative reference resolved against `base`. nullopt when
// neither (an empty or unusable Location).
std::optional<std::string> resolve_location(const std::string& base, const std::string& location);

}  // namespace pe
